import {
  START,
  auditHead,
  comparePositions,
  countEvents,
  startAuditPass,
  type BrokenLink,
  type ErasedSubject,
  type GlobalPosition,
  type PersonalDataCodec,
  type SqlDatabase,
  type SqlExecutor,
} from '@transfergate/event-store';
import { checkCallbackRecords } from '../invariants/callback-records.js';
import { checkLedgerInvariants, type InvariantViolation } from '../invariants/check-invariants.js';
import { checkMatchInvariants } from '../reconciliation/read-model/match-invariants.js';
import { LEDGER_PROJECTION, projectEvents } from '../read-models/projector.js';
import { BULK_TABLES, DeferredKeys } from './deferred-keys.js';
import { MemoryProjection, type InScratch } from './memory-projection.js';
import { diffReadModels, type DiffResult } from './read-model-diff.js';
import { ScratchSchema } from './scratch-schema.js';
import { StoredEvent } from './stored-event.js';
import { WriteBatchingExecutor } from './write-batching-executor.js';

/** Events per read page and per projection transaction. */
export const REPLAY_BATCH_EVENTS = 2_000;
/** Bound on listed erased subjects in the report (the count stays exact). */
const MAX_LISTED_ERASED_SUBJECTS = 1_000;
/** Bound on listed broken links (each stream reports its own; the count stays exact). */
const MAX_BROKEN_LINKS = 1_000;

/**
 * How the rebuild projects: `memory` (default) folds into Maps and writes the tables in bulk
 * (memory-projection.ts); `sql` runs the live projector event by event (the reference it is
 * cross-checked against).
 */
export type ReplayProjector = 'sql' | 'memory';
export const REPLAY_PROJECTORS: readonly ReplayProjector[] = ['sql', 'memory'];

export type ReplayUntil = { kind: 'time'; at: string } | { kind: 'position'; position: GlobalPosition };

export interface ReplayOptions {
  db: SqlDatabase;
  /** Rebuild the state as of this moment; the live comparison is then skipped (the live models are "now"). */
  until?: ReplayUntil;
  /** Merchant id or name: narrows the comparison, the balances and the per-merchant invariants. */
  merchant?: string;
  /** false skips the row-by-row comparison with the live read models (default true). */
  compareLive?: boolean;
  batchEvents?: number;
  /** Default `memory`. */
  projector?: ReplayProjector;
  /**
   * Streams the chain check holds in memory (the event store's DEFAULT_MAX_STREAM_HEADS, about 225
   * bytes each); past them the least recently seen wait in a temporary table.
   */
  maxStreamHeads?: number;
  /** Memory projector's bound on rows held before a flush (default MAX_HELD_ROWS). */
  maxHeldRows?: number;
  /** Memory projector's write-behind threshold (default SETTLED_FLUSH_ROWS, at most maxHeldRows). */
  settledFlushRows?: number;
  /** false keeps the scratch schema (its name is in the report) for the caller to inspect and drop; a failed replay drops it all the same. */
  dropScratch?: boolean;
  /** Aborts between batches (Ctrl-C in the CLI); the scratch schema is dropped all the same. */
  signal?: AbortSignal;
  onProgress?: (progress: { eventsRead: number; eventsTotal: number }) => void;
  /**
   * The decode layer of encrypted personal fields (libs/event-store personal-data): the rebuild
   * then holds them readable, erased customers' as `[erased]`, and the report lists the erased
   * subjects. Without it the fields are projected as stored.
   */
  personalData?: PersonalDataCodec;
}

export interface MerchantBalance {
  merchantId: string;
  name: string;
  /** Posted credits − posted debits. */
  postedKurus: string;
  /** Reserved for pending withdrawals. */
  pendingDebitsKurus: string;
  /** posted − pending debits: what the merchant can withdraw (down to −overdraft). */
  availableKurus: string;
}

export interface ReplayReport {
  ok: boolean;
  store: { engine: 'postgres' | 'pglite'; schema: string };
  projector: ReplayProjector;
  /** The memory projector's bulk writes (evictions + the final one) and rows it loaded back; null for sql. */
  memoryProjection: { flushes: number; rowsLoadedBack: number } | null;
  /** The scratch schema (already dropped unless dropScratch was false). */
  scratchSchema: string;
  /** Scratch schemas of replays that died without dropping them, dropped before this one started. */
  reclaimedScratchSchemas: string[];
  /** Last event replayed (inclusive) and the live projection's checkpoint at the start. */
  replayedUntil: GlobalPosition;
  liveCheckpoint: GlobalPosition | null;
  until: ReplayUntil | null;
  merchant: { merchantId: string; name: string } | null;
  events: { read: number; projected: number; seconds: number; perSecond: number };
  chain: {
    eventsChecked: number;
    broken: BrokenLink[];
    firstBroken: BrokenLink | null;
    brokenCount: number;
    /** The check held more streams than maxStreamHeads and kept the rest in a temporary table. */
    spilled: boolean;
  };
  comparison: (DiffResult & { skipped: false }) | { skipped: true; reason: string };
  invariants: InvariantViolation[];
  balances: MerchantBalance[];
  /** Customers whose keys were destroyed (their fields replayed as erased); null without a decode layer. */
  personalData: { erasedSubjects: number; erased: ErasedSubject[] } | null;
}

export class ReplayUsageError extends Error {}

/**
 * Replays the whole event stream into a scratch schema with the real projector, verifies the hash
 * chains, compares the rebuilt read models with the live ones and checks the ledger invariants on
 * the rebuilt copy. Read-only for everything outside the scratch schema: no event is appended and no
 * consumer's checkpoint moves, so the callback dispatcher and every other consumer never notice.
 */
export async function replayLedger(options: ReplayOptions): Promise<ReplayReport> {
  const { db } = options;
  const batchEvents = options.batchEvents ?? REPLAY_BATCH_EVENTS;
  const projector = options.projector ?? 'memory';
  if (!REPLAY_PROJECTORS.includes(projector)) throw new ReplayUsageError(`unknown projector ${String(projector)}`);
  const started = performance.now();
  const { rows: schemaRows } = await db.query<{ schema: string }>(`select current_schema() as schema`);
  const liveSchema = schemaRows[0]!.schema;
  const head = await auditHead(db);
  const liveCheckpoint = await readCheckpoint(db);
  // Without --until: project up to what the live projection has applied (so the comparison is like
  // for like) while the chains are verified up to the head.
  const projectUntil = options.until
    ? await resolveUntil(db, options.until, head)
    : liveCheckpoint && comparePositions(liveCheckpoint, head) < 0
      ? liveCheckpoint
      : head;
  const readUntil = options.until ? projectUntil : head;

  const broken: BrokenLink[] = [];
  let brokenCount = 0;
  const onBroken = (link: BrokenLink) => {
    brokenCount += 1;
    if (broken.length < MAX_BROKEN_LINKS) broken.push(link);
  };
  let eventsRead = 0;
  let projected = 0;
  // Reading and the chain check run beside this thread's projection (audit-pass.ts says where). The
  // pass starts first: its reader's start and first pages, and the count, overlap the scratch DDL.
  const pass = startAuditPass(db, {
    readUntil,
    projectUntil,
    batchEvents,
    onBroken,
    maxStreamHeads: options.maxStreamHeads,
  });
  let scratch: ScratchSchema | undefined;
  let memory: MemoryProjection | undefined;
  let reported = false;
  try {
    const counting = countEvents(db, readUntil);
    // Awaited once the schema exists; a failure meanwhile must not surface as an unhandled rejection.
    counting.catch(() => undefined);
    const schema = await ScratchSchema.create(db);
    scratch = schema;
    const inScratch = <T>(work: (tx: SqlExecutor) => Promise<T>) => schema.run(work);
    const eventsTotal = await counting;
    // The memory projection loads the bulk tables without their keys, which go back before the first
    // read by key: a load-back, or the comparison and invariants after the fold.
    const deferredKeys =
      projector === 'memory' ? await inScratch((tx) => DeferredKeys.takeOff(tx, BULK_TABLES)) : undefined;
    memory = deferredKeys
      ? new MemoryProjection(options.maxHeldRows, options.settledFlushRows, (tx) => deferredKeys.restore(tx))
      : undefined;
    for (;;) {
      const page = await pass.next();
      if (!page) break;
      if (options.signal?.aborted) throw new Error('replay interrupted');
      eventsRead += page.read;
      projected += page.events.length;
      const stored = page.events.map((row) => new StoredEvent(row));
      const events = options.personalData ? await options.personalData.decrypt(stored) : stored;
      // The rows are not needed past this point; dropping them lets a collection during the fold skip them.
      page.events.length = 0;
      if (events.length > 0 && memory) await memory.applyPage(events, inScratch);
      else if (events.length > 0) {
        await schema.run(async (tx) => {
          if (db.kind === 'pglite') return projectEvents(tx, events);
          const batching = new WriteBatchingExecutor(tx);
          await projectEvents(batching, events);
          await batching.flush();
        });
      }
      options.onProgress?.({ eventsRead, eventsTotal });
    }
    // The last write and the keys' return are the server's work, the stream heads' check mostly the
    // reader's: side by side, neither waits for the other. Both end before anything else goes on.
    await settleBoth(
      memory && deferredKeys ? finishRebuild(memory, deferredKeys, inScratch) : Promise.resolve(),
      // Without --until the chains are checked up to the head, past the projection's bound, and the heads with them.
      pass.finish({ heads: !options.until }),
    );
    const seconds = (performance.now() - started) / 1000;

    const merchant = options.merchant ? await findMerchant(schema, options.merchant) : null;
    const comparison: ReplayReport['comparison'] = options.until
      ? { skipped: true, reason: '--until rebuilds a past state; the live read models hold the present one' }
      : options.compareLive === false
        ? { skipped: true, reason: 'not requested' }
        : { skipped: false, ...(await diffReadModels(db, liveSchema, schema.name, merchant?.merchantId)) };
    const invariants = await schema.run(async (tx) => {
      const found = [
        ...(await checkLedgerInvariants(tx)),
        ...(await checkCallbackRecords(tx)),
        ...(await checkMatchInvariants(tx)),
      ];
      return merchant ? narrowViolations(tx, found, merchant.merchantId) : found;
    }, liveSchema);
    const balances = await schema.run((tx) => merchantBalances(tx, merchant?.merchantId));
    const keys = options.personalData?.keys;
    const personalData = keys
      ? {
          erasedSubjects: await keys.erasedSubjectCount(),
          erased: await keys.erasedSubjects(MAX_LISTED_ERASED_SUBJECTS),
        }
      : null;

    const chainOk = brokenCount === 0;
    const comparisonOk = comparison.skipped || comparison.differences.length === 0;
    const report: ReplayReport = {
      ok: chainOk && comparisonOk && invariants.length === 0,
      store: { engine: db.kind, schema: liveSchema },
      projector,
      memoryProjection: memory ? { flushes: memory.flushes, rowsLoadedBack: memory.rowsLoadedBack } : null,
      scratchSchema: schema.name,
      reclaimedScratchSchemas: [...schema.reclaimed],
      replayedUntil: projectUntil,
      liveCheckpoint,
      until: options.until ?? null,
      merchant,
      events: { read: eventsRead, projected, seconds, perSecond: seconds > 0 ? Math.round(eventsRead / seconds) : 0 },
      chain: {
        eventsChecked: pass.eventsChecked,
        broken,
        firstBroken: broken[0] ?? null,
        brokenCount,
        spilled: pass.spilled,
      },
      comparison,
      invariants,
      balances,
      personalData,
    };
    reported = true;
    return report;
  } finally {
    await pass.close();
    await memory?.settle();
    // A replay that failed has no report to name its scratch schema, so nobody could drop it later.
    if (scratch && (options.dropScratch !== false || !reported)) await scratch.drop();
    else if (scratch) await scratch.keep();
  }
}

/** The memory projection's last write, then the bulk tables' keys back in place. */
async function finishRebuild(memory: MemoryProjection, keys: DeferredKeys, inScratch: InScratch): Promise<void> {
  await memory.finish(inScratch);
  await inScratch((tx) => keys.restore(tx));
}

/** Waits for both, then fails with the first one's error if either failed. */
async function settleBoth(first: Promise<void>, second: Promise<void>): Promise<void> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
}

async function readCheckpoint(db: SqlDatabase): Promise<GlobalPosition | null> {
  const { rows } = await db.query<{ xid: string; seq: string }>(
    `select commit_xid::text as xid, seq::text as seq from es_checkpoints where consumer = $1`,
    [LEDGER_PROJECTION],
  );
  return rows[0] ? { commitXid: rows[0].xid, seq: rows[0].seq } : null;
}

/**
 * A moment is the prefix of the global order before the first event recorded after it (a prefix,
 * so no stream is ever cut in the middle of its order). A position is `xid:seq`, or a bare `seq`.
 */
async function resolveUntil(db: SqlDatabase, until: ReplayUntil, head: GlobalPosition): Promise<GlobalPosition> {
  if (until.kind === 'position') {
    const p = until.position;
    if (p.commitXid !== '') return comparePositions(p, head) < 0 ? p : head;
    const { rows } = await db.query<{ xid: string }>(`select xid::text as xid from es_events where seq = $1::bigint`, [
      p.seq,
    ]);
    if (!rows[0]) throw new ReplayUsageError(`--until: no event at position ${p.seq}`);
    const position = { commitXid: rows[0].xid, seq: p.seq };
    return comparePositions(position, head) < 0 ? position : head;
  }
  const { rows: after } = await db.query<{ xid: string; seq: string }>(
    `select xid::text as xid, seq::text as seq from es_events where created_at > $1::timestamptz
     order by es_events.xid, es_events.seq limit 1`,
    [until.at],
  );
  if (!after[0]) return head;
  const { rows: last } = await db.query<{ xid: string; seq: string }>(
    `select xid::text as xid, seq::text as seq from es_events where (xid, seq) < ($1::text::xid8, $2::bigint)
     order by es_events.xid desc, es_events.seq desc limit 1`,
    [after[0].xid, after[0].seq],
  );
  return last[0] ? { commitXid: last[0].xid, seq: last[0].seq } : START;
}

async function findMerchant(scratch: ScratchSchema, idOrName: string): Promise<{ merchantId: string; name: string }> {
  const rows = await scratch.run(async (tx) => {
    const { rows: found } = await tx.query<{ merchant_id: string; name: string }>(
      `select merchant_id, name from rm_merchants where merchant_id = $1 or lower(name) = lower($1) order by merchant_id`,
      [idOrName],
    );
    return found;
  });
  if (rows.length === 0) throw new ReplayUsageError(`--merchant: no merchant with id or name "${idOrName}"`);
  if (rows.length > 1)
    throw new ReplayUsageError(`--merchant: "${idOrName}" names ${rows.length} merchants; use the id`);
  return { merchantId: rows[0]!.merchant_id, name: rows[0]!.name };
}

/** Keeps the ledger-wide totals and what concerns this merchant's account or transactions. */
async function narrowViolations(
  tx: SqlExecutor,
  found: InvariantViolation[],
  merchantId: string,
): Promise<InvariantViolation[]> {
  const { rows } = await tx.query<{ id: string }>(
    `select transaction_id::text as id from rm_transactions where merchant_id = $1`,
    [merchantId],
  );
  const own = new Set(rows.map((r) => `txn:${r.id}`));
  return found.filter(
    (v) => v.invariant === 'debits_equal_credits' || v.subject === `merchant:${merchantId}` || own.has(v.subject),
  );
}

async function merchantBalances(tx: SqlExecutor, merchantId: string | undefined): Promise<MerchantBalance[]> {
  const { rows } = await tx.query<{ merchant_id: string; name: string; posted: string; pending: string }>(
    `select m.merchant_id, m.name,
            (coalesce(b.credits_posted_kurus, 0) - coalesce(b.debits_posted_kurus, 0))::text as posted,
            coalesce(b.debits_pending_kurus, 0)::text as pending
     from rm_merchants m left join rm_balances b on b.account_id = 'merchant:' || m.merchant_id
     where $1::text is null or m.merchant_id = $1 order by m.name, m.merchant_id`,
    [merchantId ?? null],
  );
  return rows.map((r) => ({
    merchantId: r.merchant_id,
    name: r.name,
    postedKurus: r.posted,
    pendingDebitsKurus: r.pending,
    availableKurus: (BigInt(r.posted) - BigInt(r.pending)).toString(),
  }));
}
