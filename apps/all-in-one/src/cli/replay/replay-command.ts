import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { kurusToDecimalString, personalDataPolicy } from '@transfergate/contracts';
import {
  DataDirLockedError,
  PersonalDataCodec,
  SubjectKeys,
  openPglite,
  openPostgres,
  type SqlDatabase,
} from '@transfergate/event-store';
import { DataKeyUnwrapError, MasterKeyProvider } from '@transfergate/security';
import {
  REPLAY_PROJECTORS,
  ReplayUsageError,
  replayLedger,
  type ReplayProjector,
  type ReplayReport,
  type ReplayUntil,
} from '@transfergate/ledger';
import { onStarterGone, signalExitCode } from './replay-process.js';

/** Exit codes of `transfergate replay` (docs/auditing.md, "Replay"); with several failures the lowest wins. */
export const REPLAY_EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  chainBroken: 3,
  readModelsDiffer: 4,
  invariantViolated: 5,
} as const;

export class ReplayCliError extends Error {}
/** `--help`: the usage goes to stdout and the exit code is 0. */
export class ReplayHelpRequested extends Error {}

export interface ReplayCliOptions {
  until?: ReplayUntil;
  merchant?: string;
  json: boolean;
  schema?: string;
  databaseUrl?: string;
  dataDir?: string;
  progress: boolean;
  projector: ReplayProjector;
  /** The chain check's bound on streams held in memory (replayLedger's maxStreamHeads). */
  maxStreamHeads?: number;
}

export const REPLAY_USAGE = `usage: transfergate replay [--until <ISO time|xid:seq|seq>] [--merchant <id|name>] [--json] [--no-progress]
                          [--projector memory|sql] [--max-stream-heads <n>] [--database-url postgres://…] [--schema <name>]
                          [--data-dir <dir>]
  Reads the event store of --database-url or DATABASE_URL (schema: --schema or DATABASE_SCHEMA), else the
  PGlite data in --data-dir or DATA_DIR (default ./data; stop the server first, PGlite serves one process), rebuilds the read
  models into a scratch schema, verifies the hash chains, compares with the live read models and checks
  the ledger invariants. Exit 0 when all hold; 3 broken chain, 4 read models differ, 5 invariant violated,
  2 usage, 1 failure. --projector sql rebuilds with the live projector event by event (slow; the
  reference the default in-memory projection is checked against). --max-stream-heads (default 1000000, about
  225 bytes each) bounds the streams the chain check holds in memory; past it the rest wait in a temporary table.
  A store with encrypted personal data (pd_data_keys) is decrypted with TRANSFERGATE_SECRET_KEY, else DATA_DIR/secret.key;
  erased customers are replayed as [erased] and listed.`;

export function parseReplayArgs(args: string[]): ReplayCliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        until: { type: 'string' },
        merchant: { type: 'string' },
        json: { type: 'boolean', default: false },
        schema: { type: 'string' },
        'database-url': { type: 'string' },
        'data-dir': { type: 'string' },
        'no-progress': { type: 'boolean', default: false },
        projector: { type: 'string', default: 'memory' },
        'max-stream-heads': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ReplayCliError(`${error instanceof Error ? error.message : String(error)}\n${REPLAY_USAGE}`);
  }
  if (values.help) throw new ReplayHelpRequested(REPLAY_USAGE);
  const projector = values.projector as ReplayProjector;
  if (!REPLAY_PROJECTORS.includes(projector)) {
    throw new ReplayCliError(`--projector must be ${REPLAY_PROJECTORS.join(' or ')} (got "${values.projector}")`);
  }
  const heads = values['max-stream-heads'];
  if (heads !== undefined && !/^[1-9]\d{0,9}$/.test(heads)) {
    throw new ReplayCliError(`--max-stream-heads must be a whole number from 1 to 9999999999 (got "${heads}")`);
  }
  return {
    ...(heads !== undefined ? { maxStreamHeads: Number(heads) } : {}),
    ...(values.until !== undefined ? { until: parseUntil(values.until) } : {}),
    ...(values.merchant !== undefined ? { merchant: values.merchant } : {}),
    ...(values.schema !== undefined ? { schema: values.schema } : {}),
    ...(values['database-url'] !== undefined ? { databaseUrl: values['database-url'] } : {}),
    ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
    json: values.json,
    progress: !values['no-progress'],
    projector,
  };
}

function parseUntil(text: string): ReplayUntil {
  const pair = /^(\d{1,20}):(\d{1,20})$/.exec(text);
  if (pair) return { kind: 'position', position: { commitXid: pair[1]!, seq: pair[2]! } };
  if (/^\d{1,20}$/.test(text)) return { kind: 'position', position: { commitXid: '', seq: text } };
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(Date.parse(text))) {
    return { kind: 'time', at: new Date(text).toISOString() };
  }
  throw new ReplayCliError(`--until must be an ISO timestamp, a position xid:seq or a seq (got "${text}")`);
}

/**
 * The store `npm start` would use, the options first (as `transfergate statement`): --database-url or
 * DATABASE_URL, else the PGlite data under --data-dir or DATA_DIR.
 */
async function openConfiguredStore(
  env: NodeJS.ProcessEnv,
  options: Pick<ReplayCliOptions, 'databaseUrl' | 'dataDir'>,
  schema: string | undefined,
): Promise<SqlDatabase> {
  const url = options.databaseUrl ?? env.DATABASE_URL;
  if (url) {
    if (!/^postgres(ql)?:\/\/.+/.test(url)) {
      throw new ReplayCliError('--database-url / DATABASE_URL must be a postgres:// URL');
    }
    return openPostgres({ url, poolSize: 4, ...(schema ? { schema } : {}) });
  }
  if (schema) throw new ReplayCliError('--schema needs --database-url or DATABASE_URL (PGlite has one schema)');
  const dataDir = join(resolve(options.dataDir ?? (env.DATA_DIR || './data')), 'pgdata');
  // PGlite would happily create an empty database: refuse instead of "verifying" nothing.
  if (!existsSync(dataDir)) {
    throw new ReplayCliError(`no PGlite data at ${dataDir} (give --data-dir or --database-url)`);
  }
  return openPglite(dataDir);
}

/**
 * The decode layer of a store with encrypted personal fields (docs/decisions/0067-personal-data.md),
 * with the master key `npm start` would use: TRANSFERGATE_SECRET_KEY, else the embedded store's
 * DATA_DIR/secret.key. None for a store without a key table; a store with one and no key, or the
 * wrong key, is refused (a replay never projects ciphertext as if it were names).
 */
async function personalDataOf(
  db: SqlDatabase,
  env: NodeJS.ProcessEnv,
  options: Pick<ReplayCliOptions, 'dataDir'>,
): Promise<PersonalDataCodec | undefined> {
  const { rows } = await db.query<{ present: boolean }>(`select to_regclass('pd_data_keys') is not null as present`);
  if (!rows[0]?.present) return undefined;
  let key: Buffer | undefined;
  if (env.TRANSFERGATE_SECRET_KEY) key = Buffer.from(env.TRANSFERGATE_SECRET_KEY, 'base64');
  else if (db.kind === 'pglite') {
    const file = join(resolve(options.dataDir ?? (env.DATA_DIR || './data')), 'secret.key');
    if (existsSync(file)) key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  }
  if (key?.length !== 32) {
    throw new ReplayCliError(
      'this store holds encrypted personal data: give TRANSFERGATE_SECRET_KEY, the master key it was written with (32 bytes, base64)',
    );
  }
  try {
    return new PersonalDataCodec(await SubjectKeys.open(db, new MasterKeyProvider(key)), personalDataPolicy());
  } catch (error) {
    if (error instanceof DataKeyUnwrapError) throw new ReplayCliError(error.message);
    throw error;
  }
}

export function exitCodeOf(report: ReplayReport): number {
  if (report.chain.brokenCount > 0) return REPLAY_EXIT.chainBroken;
  if (!report.comparison.skipped && report.comparison.differences.length > 0) return REPLAY_EXIT.readModelsDiffer;
  if (report.invariants.length > 0) return REPLAY_EXIT.invariantViolated;
  return REPLAY_EXIT.ok;
}

const position = (p: { commitXid: string; seq: string }) => `${p.commitXid}:${p.seq}`;
const money = (kurus: string) => `${kurusToDecimalString(BigInt(kurus))} TRY`;
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function formatReport(report: ReplayReport): string {
  const lines: string[] = [];
  const e = report.events;
  lines.push(
    `replay: ${e.read} events read, ${e.projected} projected in ${e.seconds.toFixed(2)} s (${e.perSecond} events/s), ` +
      `${report.store.engine} schema ${report.store.schema}, ${report.projector} projector, up to ${position(report.replayedUntil)}` +
      (report.merchant ? `, merchant ${report.merchant.name} (${report.merchant.merchantId})` : ''),
  );
  if (report.reclaimedScratchSchemas.length > 0) {
    lines.push(
      `scratch schemas of replays that died without dropping them, dropped: ${report.reclaimedScratchSchemas.join(', ')}`,
    );
  }
  const c = report.chain;
  if (c.brokenCount === 0) lines.push(`hash chains: ok (${c.eventsChecked} events)`);
  else {
    lines.push(`hash chains: BROKEN (${c.brokenCount} links)`);
    for (const b of c.broken) {
      lines.push(
        `  ${b.reason} stream ${b.streamId} version ${b.streamVersion} position ${position(b.position)}` +
          `${b.eventId ? ` event ${b.eventId}` : ''}: expected ${b.expected}, stored ${b.actual}`,
      );
    }
  }
  if (report.comparison.skipped) lines.push(`read models: comparison skipped (${report.comparison.reason})`);
  else {
    const d = report.comparison;
    lines.push(
      `read models: ${d.tablesCompared.length} tables, ${d.rowsCompared} rows compared, ${d.differences.length} differences` +
        (d.truncated ? ' (truncated)' : ''),
    );
    for (const x of d.differences) {
      lines.push(`  ${x.table} [${x.key}] ${x.column}: live ${shown(x.live)} ≠ rebuilt ${shown(x.rebuilt)}`);
    }
  }
  if (report.invariants.length === 0) lines.push('invariants: ok');
  else {
    lines.push(`invariants: ${report.invariants.length} violated`);
    for (const v of report.invariants) lines.push(`  ${v.invariant} ${v.subject}: ${v.detail}`);
  }
  if (report.personalData) {
    const p = report.personalData;
    lines.push(`personal data: decrypted; ${p.erasedSubjects} erased subjects (their fields replayed as erased)`);
    for (const s of p.erased) lines.push(`  ${s.subjectId} erased ${s.erasedAt} by ${s.erasedBy}: ${s.reason}`);
  }
  lines.push(`balances${report.until ? ` as of ${position(report.replayedUntil)}` : ''}:`);
  for (const b of report.balances) {
    lines.push(
      `  ${b.name} (${b.merchantId}): posted ${money(b.postedKurus)}, reserved ${money(b.pendingDebitsKurus)}, available ${money(b.availableKurus)}`,
    );
  }
  return lines.join('\n');
}

/** What may stop a replay between pages: `listen` calls `stop` (with the signal, if one) and returns its undo. */
export interface ReplayInterruptions {
  listen(stop: (signal?: NodeJS.Signals) => void): () => void;
}

/** This process's SIGINT and SIGTERM, and its starter going away (replay-process.ts). */
export const PROCESS_INTERRUPTIONS: ReplayInterruptions = {
  listen(stop) {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const forgetStarter = onStarterGone(stop);
    return () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      forgetStarter();
    };
  },
};

/** `transfergate replay …`: answers the exit code; the caller exits with it. */
export async function runReplayCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  interruptions: ReplayInterruptions = PROCESS_INTERRUPTIONS,
): Promise<number> {
  let options: ReplayCliOptions;
  try {
    options = parseReplayArgs(args);
  } catch (error) {
    if (error instanceof ReplayHelpRequested) {
      console.log(error.message);
      return REPLAY_EXIT.ok;
    }
    console.error(error instanceof Error ? error.message : String(error));
    return REPLAY_EXIT.usage;
  }
  let db: SqlDatabase | undefined;
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: 'replay [{bar}] {percentage}% | {value}/{total} events | {speed} events/s | ETA {eta_formatted}',
      etaBuffer: 50,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let barStarted = false;
  const startedMs = Date.now();
  // Ctrl-C stops after the current batch, so the scratch schema is still dropped. The command then
  // exits as the signal would have ended it (130, 143), so a script or a job runner tells an
  // interrupted replay from a failed one; the starter's going away (no signal) is a failure.
  const abort = new AbortController();
  let interruptedBy: NodeJS.Signals | undefined;
  const stopListening = interruptions.listen((signal) => {
    interruptedBy ??= signal;
    abort.abort();
  });
  try {
    db = await openConfiguredStore(env, options, options.schema ?? (env.DATABASE_SCHEMA || undefined));
    const { rows } = await db.query<{ present: boolean }>(`select to_regclass('es_events') is not null as present`);
    if (!rows[0]?.present) throw new ReplayCliError('no event store (es_events) in this database');
    const personalData = await personalDataOf(db, env, options);
    const report = await replayLedger({
      db,
      ...(personalData ? { personalData } : {}),
      projector: options.projector,
      maxStreamHeads: options.maxStreamHeads,
      ...(options.until ? { until: options.until } : {}),
      ...(options.merchant ? { merchant: options.merchant } : {}),
      signal: abort.signal,
      onProgress: ({ eventsRead, eventsTotal }) => {
        if (!options.progress) return;
        const speed = Math.round(eventsRead / Math.max(0.001, (Date.now() - startedMs) / 1000));
        if (!barStarted) {
          bar.start(eventsTotal, 0, { speed });
          barStarted = true;
        }
        bar.update(eventsRead, { speed });
      },
    });
    if (barStarted) bar.stop();
    if (options.json) process.stdout.write(`${JSON.stringify({ ...report, exitCode: exitCodeOf(report) })}\n`);
    else console.log(formatReport(report));
    return exitCodeOf(report);
  } catch (error) {
    if (barStarted) bar.stop();
    // The server (or another CLI) holds the embedded store: refuse, naming it (replay a live server's
    // PGlite only after stopping it; on PostgreSQL replay runs beside the server).
    if (error instanceof ReplayCliError || error instanceof ReplayUsageError || error instanceof DataDirLockedError) {
      console.error(`replay: ${error.message}`);
      return REPLAY_EXIT.usage;
    }
    if (interruptedBy) {
      console.error(
        `replay: interrupted by ${interruptedBy}; its scratch schema was dropped, nothing else was written`,
      );
      return signalExitCode(interruptedBy);
    }
    console.error(`replay failed: ${error instanceof Error ? error.message : String(error)}`);
    return REPLAY_EXIT.failed;
  } finally {
    stopListening();
    await db?.close().catch(() => undefined);
  }
}
