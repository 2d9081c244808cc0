// Growth phase: does the cost stay flat as the store grows? On PostgreSQL:
//   1. an app on an empty store: H2H deposits beside the floor INSERT (BENCH_GROWTH_ROUNDS rounds,
//      default 3), then /status lookups beside the floor SELECT, as the app phase measures them;
//   2. a second store pre-filled by bulk COPY with BENCH_GROWTH_EVENTS events (default 5,000,000): a
//      year of a busy deployment, BENCH_GROWTH_MERCHANTS merchants (default 50). Per deposit (3 in 4
//      transactions): DepositRequested + TransactionApproved (its stream), TransfersPosted (the
//      merchant's ledger), and its bank statement line, StatementLineImported + StatementLineMatched
//      (the account's statement stream, a StatementImported per 1,000 lines); per withdrawal:
//      WithdrawalRequested, TransfersReserved, TransactionApproved, ReservationPosted. Recorded times
//      spread over the past 365 days. Chains backfilled, then VACUUM FULL and a checkpoint: the size and
//      layout of a store written by appends.
//      The replay's rate (`transfergate replay`'s rebuild) at a fifth of the events and at all of them;
//   3. an app on the filled store (its projection first catches up over the whole history): the same
//      deposits and /status against the same floors.
// Prints each figure's ours/floor on both stores and filled/empty (goal ≥ 0.9), the replay's rate at
// N against N/5 (goal ≥ 0.9), and the database's size per million events. Not part of `npm test`.
// `node bench/growth-phase.mjs` runs it alone (after `npm run build`); `npm run bench` as phase `growth`.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { REPLAY_NODE_OPTIONS, replayInOwnProcess } from '../apps/all-in-one/dist/cli/replay/replay-process.js';
import {
  PostgresEventStore,
  copyBytes,
  openPostgres,
  postgresConnectionOf,
  postgresPoolConfig,
} from '../libs/event-store/dist/index.js';
import { READ_MODEL_SCHEMA, replayLedger } from '../services/ledger/dist/index.js';
import * as allInOne from '../apps/all-in-one/dist/index.js';
import { BODY_LIMIT, BOOTSTRAP, appConfig } from './app-config.mjs';
import { startFloor } from './floor.mjs';
import { SCENARIOS, measure, round, runLoad } from './load.mjs';

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const GROWTH_EVENTS = Number(process.env.BENCH_GROWTH_EVENTS ?? 5_000_000);
const MERCHANTS = Number(process.env.BENCH_GROWTH_MERCHANTS ?? 50);
const MEASURED_ROUNDS = Number(process.env.BENCH_GROWTH_ROUNDS ?? 3);
const JIT_WARMUP_SECONDS = Number(process.env.BENCH_GROWTH_WARMUP_SECONDS ?? 5);
if (!Number.isInteger(GROWTH_EVENTS) || GROWTH_EVENTS < 1_000 || GROWTH_EVENTS > 50_000_000)
  throw new RangeError('BENCH_GROWTH_EVENTS: an integer 1000..50000000');
if (!Number.isInteger(MERCHANTS) || MERCHANTS < 1 || MERCHANTS > 10_000)
  throw new RangeError('BENCH_GROWTH_MERCHANTS: 1..10000');
if (!Number.isInteger(MEASURED_ROUNDS) || MEASURED_ROUNDS < 1 || MEASURED_ROUNDS > 9)
  throw new RangeError('BENCH_GROWTH_ROUNDS: 1..9');
if (!Number.isInteger(JIT_WARMUP_SECONDS) || JIT_WARMUP_SECONDS < 0 || JIT_WARMUP_SECONDS > 60)
  throw new RangeError('BENCH_GROWTH_WARMUP_SECONDS: 0..60');
/** Rows per COPY statement (one transaction each); a chunk's text is a few megabytes. */
const COPY_CHUNK_ROWS = 20_000;
const STATEMENT_LINES_PER_IMPORT = 1_000;
const BANK_ACCOUNTS = 7;
const STATUS_IDS = 300;
/** The callback dispatcher's consumer (services/callback-dispatcher/src/schema.ts). */
const CALLBACK_CONSUMER = 'callback-dispatcher';
const YEAR_MS = 365 * 86_400_000;
/** The whole history's projection on the filled store's first start, at most (the app's own catch-up). */
const CATCH_UP_LIMIT_MS = 3_600_000;
const COLUMNS = ['event_id', 'stream_id', 'stream_version', 'type', 'schema_version', 'data', 'metadata', 'created_at'];
const require = createRequire(import.meta.url);
const { createApp, parseBootstrap } = allInOne;

const uuidOf = (text) => {
  const h = createHash('md5').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * The generated history, transaction by transaction, in the order a ledger writes it. Stream
 * versions of the shared streams (merchant ledgers, statements) carry on across fills.
 */
class History {
  constructor(startMs, transactionsPlanned) {
    this.i = 0;
    this.events = 0;
    this.startMs = startMs;
    this.spanMs = YEAR_MS / transactionsPlanned;
    this.versions = new Map();
    this.lines = 0;
  }

  next(stream) {
    const v = (this.versions.get(stream) ?? 0) + 1;
    this.versions.set(stream, v);
    return v;
  }

  /** The rows of transaction i (the next one). */
  transaction() {
    const i = this.i++;
    const tag = `g${i.toString(16).padStart(10, '0')}`;
    const merchant = `growth-m${i % MERCHANTS}`;
    const account = `growth-account-${i % BANK_ACCOUNTS}`;
    const txn = uuidOf(`growth-txn-${i}`);
    const amount = String(10_000 + (i % 97) * 100);
    const at = new Date(this.startMs + i * this.spanMs);
    const createdAt = at.toISOString();
    const withdrawal = i % 4 === 3;
    const rows = [];
    const row = (stream, version, type, data) => {
      rows.push({
        event_id: uuidOf(`${stream}#${version}`),
        stream_id: stream,
        stream_version: version,
        type,
        schema_version: 1,
        data: JSON.stringify(data),
        metadata: '{"actor":"growth-operator","source":"bench"}',
        created_at: createdAt,
      });
    };
    const txnStream = `txn-${txn}`;
    const ledger = `merchant-ledger-${merchant}`;
    const common = {
      transactionId: txn,
      number: i + 1,
      merchantId: merchant,
      providerId: 'growth-provider',
      infrastructureId: 'growth-infra',
      form: 'h2h',
      requestFingerprint: createHash('md5').update(tag).digest('hex'),
      echo: {},
      amountKurus: amount,
      customer: { fullName: `Büyüme Müşteri ${i}` },
    };
    const by = { operatorId: 'growth-operator', source: 'panel' };
    if (withdrawal) {
      const transfer = {
        transferId: `tr-${tag}`,
        debitAccount: `merchant:${merchant}`,
        creditAccount: 'payout-clearing',
        amountKurus: amount,
      };
      row(txnStream, 1, 'WithdrawalRequested', {
        ...common,
        externalId: `GW-${i}`,
        feeKurus: '0',
        iban: 'TR330006100519786457841326',
      });
      row(ledger, this.next(ledger), 'TransfersReserved', {
        transactionId: txn,
        merchantId: merchant,
        transfers: [transfer],
      });
      row(txnStream, 2, 'TransactionApproved', { transactionId: txn, amountKurus: amount, fromState: 'pending', by });
      row(ledger, this.next(ledger), 'ReservationPosted', {
        transactionId: txn,
        merchantId: merchant,
        transfers: [transfer],
      });
    } else {
      row(txnStream, 1, 'DepositRequested', {
        ...common,
        externalId: `GD-${i}`,
        receivingAccount: {
          bankAccountId: account,
          bank: 'Ziraat Bankası',
          bankCode: '00010',
          holderName: 'Growth Ltd',
          iban: 'TR330006100519786457841326',
          fast: true,
        },
        paymentToken: `tok-${tag}`,
        expiresAt: new Date(at.getTime() + 1_800_000).toISOString(),
      });
      row(txnStream, 2, 'TransactionApproved', {
        transactionId: txn,
        amountKurus: amount,
        fromState: 'awaiting_payment',
        by,
      });
      row(ledger, this.next(ledger), 'TransfersPosted', {
        transactionId: txn,
        merchantId: merchant,
        transfers: [
          {
            transferId: `tp-${tag}`,
            debitAccount: `bank:${account}`,
            creditAccount: `merchant:${merchant}`,
            amountKurus: amount,
          },
        ],
      });
      const statement = `bank-statement-${account}`;
      const importId = uuidOf(`growth-import-${Math.floor(this.lines / STATEMENT_LINES_PER_IMPORT)}`);
      const lineId = uuidOf(`growth-line-${i}`);
      const bookedOn = createdAt.slice(0, 10);
      row(statement, this.next(statement), 'StatementLineImported', {
        lineId,
        importId,
        bankAccountId: account,
        identity: `ref-${tag}`,
        bankReference: `REF${tag.toUpperCase()}`,
        bookedOn,
        direction: 'credit',
        amountKurus: amount,
        description: `FAST TG-${i + 1} Büyüme Müşteri ${i}`,
        counterpartyName: `Büyüme Müşteri ${i}`,
      });
      row(statement, this.next(statement), 'StatementLineMatched', {
        lineId,
        bankAccountId: account,
        transactionId: txn,
        number: i + 1,
        mode: 'auto',
        decision: 'link',
        lineAmountKurus: amount,
        requestedAmountKurus: amount,
        differences: [],
        score: 100,
        reasons: ['reference', 'amount'],
        by: { source: 'reconciliation' },
      });
      this.lines += 1;
      if (this.lines % STATEMENT_LINES_PER_IMPORT === 0) {
        row(statement, this.next(statement), 'StatementImported', {
          importId,
          bankAccountId: account,
          format: 'csv',
          fileName: `growth-${importId}.csv`,
          fileSha256: createHash('sha256').update(importId).digest('hex'),
          linesInFile: STATEMENT_LINES_PER_IMPORT,
          linesNew: STATEMENT_LINES_PER_IMPORT,
          linesAlreadyImported: 0,
          skipped: [],
          firstDay: bookedOn,
          lastDay: bookedOn,
          by: { operatorId: 'growth-operator', source: 'panel' },
        });
      }
    }
    this.events += rows.length;
    return rows;
  }
}

/** COPYs transactions until the store holds at least `target` generated events. */
async function fillTo(db, history, target, log) {
  const client = new pg.Client(postgresPoolConfig(postgresConnectionOf(db), 1));
  await client.connect();
  const t0 = performance.now();
  let chunks = 0;
  const eventsBefore = history.events;
  try {
    while (history.events < target) {
      const rows = [];
      while (rows.length < COPY_CHUNK_ROWS && history.events < target) rows.push(...history.transaction());
      const copy = client.query(copyStreams.from(`copy es_events (${COLUMNS.join(', ')}) from stdin`));
      await pipeline(Readable.from([copyBytes(rows, COLUMNS)]), copy);
      if (++chunks % 25 === 0) log(`    copied ${history.events.toLocaleString('en-US')} events`);
    }
    // A stream the fill extended loses its chain head: the backfill then chains it again from its
    // first event (the same hashes for the events it had, the new ones after them).
    await client.query(`insert into es_streams (stream_id, version)
                        select stream_id, max(stream_version) from es_events group by stream_id
                        on conflict (stream_id) do update set version = excluded.version, head_hash = null
                        where es_streams.version <> excluded.version`);
  } finally {
    await client.end();
  }
  const copySeconds = (performance.now() - t0) / 1000;
  const copied = history.events - eventsBefore;
  let t = performance.now();
  await PostgresEventStore.create(db); // backfills the new streams' hash chains, as a migrated store's
  const backfillSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  // The backfill rewrote every new row (its hash): VACUUM FULL gives the table and its indexes the
  // size a store written by appends has (each event inserted once, hash included).
  await db.query('vacuum (full, analyze) es_events');
  await db.query('vacuum (full, analyze) es_streams');
  await db.query('checkpoint');
  const vacuumSeconds = (performance.now() - t) / 1000;
  log(
    `    ${history.events.toLocaleString('en-US')} events: copied in ${round(copySeconds, 1)} s ` +
      `(${Math.round(copied / copySeconds).toLocaleString('en-US')} events/s), chains backfilled in ` +
      `${round(backfillSeconds, 1)} s, vacuumed + checkpointed in ${round(vacuumSeconds, 1)} s`,
  );
  return { copySeconds: round(copySeconds, 1), backfillSeconds: round(backfillSeconds, 1) };
}

async function replayRate(db, log, label) {
  const t = performance.now();
  const report = await replayLedger({ db, compareLive: false, projector: 'memory' });
  if (report.chain.brokenCount !== 0) throw new Error(`replay found ${report.chain.brokenCount} broken links`);
  const result = {
    events: report.events.read,
    eventsPerSec: report.events.perSecond,
    totalSeconds: round((performance.now() - t) / 1000, 1),
  };
  log(`    replay at ${label}: ${result.events.toLocaleString('en-US')} events, ${result.eventsPerSec} events/s`);
  return result;
}

async function schemaBytes(db, schema) {
  const { rows } = await db.query(
    `select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as bytes
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind in ('r', 'm')`,
    [schema],
  );
  return Number(rows[0].bytes);
}

async function dropSchema(schema) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/** Up to `n` distinct non-empty lines of a file written by the load worker. */
function readIds(path, n) {
  try {
    return [...new Set(readFileSync(path, 'utf8').split('\n').filter(Boolean))].slice(0, n);
  } catch {
    return [];
  }
}

/** If the H2H runs yielded fewer than STATUS_IDS ids, create the rest with plain fetch. */
async function topUpIds(baseUrl, ids) {
  const setupRequest = require('./h2h-request.cjs');
  for (let failures = 0; ids.length < STATUS_IDS && failures < 5;) {
    const context = {};
    const { body } = setupRequest({ method: 'POST', path: SCENARIOS.h2hDeposit.path }, context);
    const response = await globalThis.fetch(baseUrl + SCENARIOS.h2hDeposit.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await response.text();
    if (response.ok) ids.push(context.transactionId);
    else failures += 1;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const bad = (r) => r.non2xx + r.errors + r.timeouts;

/**
 * The app on `schema` (already holding a history, or empty): H2H deposits against the floor INSERT
 * for MEASURED_ROUNDS rounds, then /status against the floor SELECT. ours/floor of req/s, medians of rounds.
 */
async function measureApp({ schema, label, tmp, log, problems }) {
  const dataDir = join(tmp, `app-${label}`);
  mkdirSync(dataDir, { recursive: true });
  const config = appConfig(allInOne, { dataDir, secretKey: randomBytes(32), databaseUrl: PG_URL });
  let t = performance.now();
  const running = await createApp(config, { schema });
  const floorSchema = `${schema}_floor`;
  try {
    // The projection starts from its checkpoint: on a filled store, the whole history first.
    await running.settle(CATCH_UP_LIMIT_MS);
    const catchUpSeconds = round((performance.now() - t) / 1000, 1);
    // A migrated store's number sequence is past its numbers.
    await running.db.query(
      `select setval('txn_number_seq', greatest((select coalesce(max(number), 0) from rm_transactions), 1))`,
    );
    await running.provision(parseBootstrap(BOOTSTRAP, 'bench'));
    await running.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${running.app.getHttpServer().address().port}`;
    log(`  ${label}: app up, projection caught up in ${catchUpSeconds} s`);
    const floor = await startFloor(
      { kind: 'postgres', url: PG_URL, schema: floorSchema },
      { path: SCENARIOS.floorInsert.path, bodyLimitBytes: BODY_LIMIT },
    );
    try {
      if (JIT_WARMUP_SECONDS > 0) {
        await runLoad(floor.url, SCENARIOS.floorInsert, JIT_WARMUP_SECONDS, `growth ${label} floor JIT warm-up`, {});
        await runLoad(url, SCENARIOS.h2hDeposit, JIT_WARMUP_SECONDS, `growth ${label} H2H JIT warm-up`, {});
      }
      const idsFile = join(tmp, `growth-ids-${label}.txt`);
      const measured = [];
      for (let r = 0; r < MEASURED_ROUNDS; r++) {
        log(`  ${label} round ${r + 1}/${MEASURED_ROUNDS}: floor INSERT, then H2H deposits ...`);
        const floorInsert = await measure(floor.url, SCENARIOS.floorInsert, `growth ${label} floor insert`);
        const env = r === 0 ? { BENCH_COLLECT_IDS_FILE: idsFile, BENCH_COLLECT_IDS_MAX: String(STATUS_IDS) } : {};
        const deposit = await measure(url, SCENARIOS.h2hDeposit, `growth ${label} H2H`, env);
        measured.push({ floorInsert, deposit, ratio: round(deposit.reqPerSec / floorInsert.reqPerSec, 3) });
      }
      const ids = readIds(idsFile, STATUS_IDS);
      await topUpIds(url, ids);
      writeFileSync(idsFile, `${ids.join('\n')}\n`);
      log(`  ${label}: /status, then the floor SELECT ...`);
      const status = await measure(url, SCENARIOS.status, `growth ${label} status`, { BENCH_STATUS_IDS_FILE: idsFile });
      const floorIdsFile = join(tmp, `growth-floor-ids-${label}.txt`);
      writeFileSync(floorIdsFile, `${(await floor.ids(STATUS_IDS)).join('\n')}\n`);
      const floorSelect = await measure(floor.url, SCENARIOS.floorSelect, `growth ${label} floor select`, {
        BENCH_STATUS_IDS_FILE: floorIdsFile,
      });
      for (const [name, result] of [
        ...measured.flatMap((one, r) => [
          [`floor insert ${r + 1}`, one.floorInsert],
          [`H2H ${r + 1}`, one.deposit],
        ]),
        ['status', status],
        ['floor select', floorSelect],
      ]) {
        if (bad(result) > 0 || result.ok2xx === 0)
          problems.push(
            `growth ${label} ${name}: ${result.non2xx} non-2xx, ${result.errors} errors of ${result.requests}`,
          );
      }
      const depositRatio = median(measured.map((one) => one.ratio));
      const statusRatio = round(status.reqPerSec / floorSelect.reqPerSec, 3);
      log(
        `  ${label}: H2H/floor INSERT ${depositRatio} (rounds ${measured.map((one) => one.ratio).join(', ')}), ` +
          `/status/floor SELECT ${statusRatio}`,
      );
      return {
        catchUpSeconds,
        deposit: {
          ratio: depositRatio,
          rounds: measured.map((one) => ({
            ours: one.deposit.reqPerSec,
            floor: one.floorInsert.reqPerSec,
            oursP99Ms: one.deposit.latencyMs.p99,
            ratio: one.ratio,
          })),
        },
        status: {
          ratio: statusRatio,
          ours: status.reqPerSec,
          floor: floorSelect.reqPerSec,
          oursP99Ms: status.latencyMs.p99,
        },
        bytes: await schemaBytes(running.db, schema),
      };
    } finally {
      await floor.close();
    }
  } finally {
    await running.close();
    await dropSchema(floorSchema);
  }
}

/**
 * The whole phase in this process. `schemaPrefix` names its two schemas (`<prefix>_empty`,
 * `<prefix>_filled`), dropped at the end whatever happens.
 */
export async function measureGrowth({ schemaPrefix, log }) {
  const tmp = mkdtempSync(join(tmpdir(), 'tg-bench-growth-'));
  const problems = [];
  const empty = `${schemaPrefix}_empty`;
  const filled = `${schemaPrefix}_filled`;
  try {
    log(`growth: an app on an empty store (${MEASURED_ROUNDS} rounds) ...`);
    const onEmpty = await measureApp({ schema: empty, label: 'empty', tmp, log, problems });
    await dropSchema(empty);

    const mark = Math.round(GROWTH_EVENTS / 5);
    log(
      `growth: filling a store by COPY to ${mark.toLocaleString('en-US')}, then ${GROWTH_EVENTS.toLocaleString('en-US')} events ...`,
    );
    const db = await openPostgres({ url: PG_URL, schema: filled, poolSize: 4 });
    let fill;
    let replay;
    let storeBytes;
    try {
      await PostgresEventStore.create(db);
      await db.exec(READ_MODEL_SCHEMA);
      // Transactions planned so that the recorded times span one year at the full size.
      const history = new History(Date.now() - YEAR_MS, Math.ceil(GROWTH_EVENTS / 3.6));
      const atMark = await fillTo(db, history, mark, log);
      const replayAtMark = await replayRate(db, log, 'a fifth');
      const atFull = await fillTo(db, history, GROWTH_EVENTS, log);
      const replayAtFull = await replayRate(db, log, 'the full size');
      storeBytes = await schemaBytes(db, filled);
      // The callbacks of a year's approvals went out long ago: the dispatcher's checkpoint is at the
      // head, as on a store that ran all year (the ledger projection builds the read models from 0).
      await db.query(
        `insert into es_checkpoints (consumer, commit_xid, seq)
         select $1, xid, seq from es_events order by xid desc, seq desc limit 1`,
        [CALLBACK_CONSUMER],
      );
      fill = { events: history.events, transactions: history.i, atMark, atFull };
      replay = {
        atMark: replayAtMark,
        atFull: replayAtFull,
        ratio: round(replayAtFull.eventsPerSec / replayAtMark.eventsPerSec, 3),
      };
    } finally {
      await db.close();
    }
    log('growth: an app on the filled store ...');
    const onFilled = await measureApp({ schema: filled, label: 'filled', tmp, log, problems });
    const perMillion = (bytes) => round(bytes / 2 ** 20 / (fill.events / 1_000_000), 1);
    return {
      events: fill.events,
      merchants: MERCHANTS,
      rounds: MEASURED_ROUNDS,
      fill,
      empty: onEmpty,
      filled: onFilled,
      ratios: {
        deposit: round(onFilled.deposit.ratio / onEmpty.deposit.ratio, 3),
        status: round(onFilled.status.ratio / onEmpty.status.ratio, 3),
        replay: replay.ratio,
      },
      replay,
      storeMiBPerMillionEvents: perMillion(storeBytes),
      databaseMiBPerMillionEvents: perMillion(onFilled.bytes),
      projectionCatchUpEventsPerSec: Math.round(fill.events / onFilled.catchUpSeconds),
      problems,
    };
  } finally {
    await dropSchema(empty).catch(() => undefined);
    await dropSchema(filled).catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The phase's lines for the report. */
export function describeGrowth(g) {
  const n = g.events.toLocaleString('en-US');
  const verdict = (x) => (x >= 0.9 ? 'ok' : 'BELOW 0.9');
  return [
    `growth (${n} events, PostgreSQL; ours/floor medians of ${g.rounds} rounds, empty store | filled store -> filled/empty, goal ≥ 0.9):`,
    `  H2H deposits / floor INSERT   ${g.empty.deposit.ratio} | ${g.filled.deposit.ratio} -> ${g.ratios.deposit} ${verdict(g.ratios.deposit)}`,
    `  /status / floor SELECT        ${g.empty.status.ratio} | ${g.filled.status.ratio} -> ${g.ratios.status} ${verdict(g.ratios.status)}`,
    `  replay rate, full / a fifth   ${g.replay.atFull.eventsPerSec} / ${g.replay.atMark.eventsPerSec} events/s -> ${g.ratios.replay} ${verdict(g.ratios.replay)}`,
    `  size per million events       ${g.storeMiBPerMillionEvents} MiB the event store; ${g.databaseMiBPerMillionEvents} MiB with the read models`,
    `  the filled store's first start: projection caught up over the history at ${g.projectionCatchUpEventsPerSec.toLocaleString('en-US')} events/s`,
  ].join('\n');
}

/** The phase in a process started with the replay's Node options (as `transfergate replay` runs). */
export async function measureGrowthInOwnProcess({ schemaPrefix, log }) {
  const resultDir = mkdtempSync(join(tmpdir(), 'tg-bench-growth-result-'));
  const resultFile = join(resultDir, 'result.json');
  try {
    const child = spawn(process.execPath, [...REPLAY_NODE_OPTIONS, fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_GROWTH_SCHEMA: schemaPrefix, BENCH_GROWTH_RESULT: resultFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const logged = /^\[\s*[\d.]+s\] (.*)$/.exec(line);
        if (logged) log(logged[1]);
      }
    });
    const exitCode = await new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve(code ?? signal));
    });
    if (exitCode !== 0) throw new Error(`growth phase exited with ${exitCode}`);
    return JSON.parse(readFileSync(resultFile, 'utf8'));
  } finally {
    rmSync(resultDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const exitCode = await replayInOwnProcess();
  if (exitCode !== undefined) process.exit(exitCode);
  const prefix = process.env.BENCH_GROWTH_SCHEMA || `bench_growth_${process.pid}`;
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix)) throw new Error('BENCH_GROWTH_SCHEMA: a plain name');
  const started = Date.now();
  const log = (m) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${m}`);
  const result = await measureGrowth({ schemaPrefix: prefix, log });
  if (process.env.BENCH_GROWTH_RESULT) writeFileSync(process.env.BENCH_GROWTH_RESULT, JSON.stringify(result));
  else {
    console.log(describeGrowth(result));
    console.log(JSON.stringify(result, null, 2));
  }
  if (result.problems.length > 0) {
    console.error(`!! growth: ${result.problems.join('; ')}`);
    process.exitCode = 2;
  }
}
