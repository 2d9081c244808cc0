import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openPglite, type SqlDatabase } from '@transfergate/event-store';
import { ReplayUsageError, diffReadModels, replayLedger, type ReplayReport } from '@transfergate/ledger';
import { ENGINES, type Engine } from '../support/test-app.js';
import { TEST_DATABASE_URL } from '../support/postgres.js';
import { indexesByTable, ownScratchSchemas } from '../support/scratch-schemas.js';
import { balances, runMixedWorkload, type Workload } from './replay-workload.js';

const MAIN = join(process.cwd(), 'apps/all-in-one/dist/main.js');

/** Runs the built CLI as a child process, as an operator would. */
function cli(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [MAIN, 'replay', '--json', '--no-progress', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  let report: (ReplayReport & { exitCode: number }) | undefined;
  try {
    report = JSON.parse(result.stdout) as ReplayReport & { exitCode: number };
  } catch {
    report = undefined;
  }
  return { status: result.status, report, stderr: result.stderr };
}

/**
 * The replay against a real mixed workload (HTTP API, panel decisions, callbacks to a real
 * receiver): the rebuild is identical to the live read models, and hand-made damage is found and
 * named, in the read models as in the event store.
 */
describe.each(ENGINES)('replay and audit (%s)', (engine: Engine) => {
  let w: Workload;
  let schema: string;

  beforeAll(async () => {
    w = await runMixedWorkload(engine);
    schema = (await w.app.db.query<{ s: string }>('select current_schema() as s')).rows[0]!.s;
  }, 240_000);
  let closed = false;
  afterAll(async () => {
    if (closed) await w?.app.stop().catch(() => undefined);
    else await w?.app.stop();
    await w?.receiver.close();
    if (w) rmSync(w.dataDir, { recursive: true, force: true });
  });

  const replay = (options: Omit<Parameters<typeof replayLedger>[0], 'db'> = {}) =>
    replayLedger({ db: w.app.db, ...options });
  /** This process's scratch schemas (the server is shared: another process may be replaying). */
  it('rebuilds read models identical to the live ones, with every chain and invariant intact', async () => {
    const { rows } = await w.app.db.query<{ n: string }>('select count(*)::text as n from es_events');
    const consumers = `select consumer, commit_xid::text, seq::text, (select count(*) from cb_deliveries)::text as deliveries
                       from es_checkpoints order by consumer`;
    const before = (await w.app.db.query(consumers)).rows;
    const report = await replay();
    // Read-only outside its scratch schema: no consumer moved, no callback was enqueued.
    expect((await w.app.db.query(consumers)).rows).toEqual(before);
    expect(report.chain).toMatchObject({ brokenCount: 0, eventsChecked: Number(rows[0]!.n), spilled: false });
    expect(report.invariants).toEqual([]);
    if (report.comparison.skipped) throw new Error('comparison skipped');
    expect(report.comparison.differences).toEqual([]);
    expect(report.comparison.tablesCompared).toEqual(
      expect.arrayContaining([
        'rm_transactions',
        'rm_transfers',
        'rm_balances',
        'rm_merchants',
        'rm_bank_account_daily',
      ]),
    );
    // 12 ledger tables (amount change requests among them) and the 4 of reconciliation (statement imports,
    // lines, line status, settings).
    expect(report.comparison.tablesCompared).toHaveLength(16);
    expect(report.comparison.rowsCompared).toBeGreaterThan(30);
    expect(report.ok).toBe(true);
    const live = await balances(w.app);
    expect(report.balances.map((b) => [b.merchantId, b.availableKurus])).toEqual(
      expect.arrayContaining([...live.entries()]),
    );
    // The scratch schema is gone and no consumer moved.
    expect(await ownScratchSchemas(w.app.db)).toEqual([]);
    expect(w.receiver.received.length).toBeGreaterThanOrEqual(w.decisions - 1);

    // The chain check bounded to 3 streams (every transaction is one) keeps the rest in a temporary
    // table and comes to the same report.
    const bounded = await replay({ maxStreamHeads: 3 });
    expect(bounded.chain).toMatchObject({ brokenCount: 0, eventsChecked: report.chain.eventsChecked, spilled: true });
    expect(bounded.ok).toBe(true);
    expect(bounded.balances).toEqual(report.balances);
  });

  it('drops its scratch schema when it fails, even when asked to keep it (no report would name it)', async () => {
    const interrupted = new AbortController();
    interrupted.abort();
    await expect(replay({ dropScratch: false, signal: interrupted.signal })).rejects.toThrow('replay interrupted');
    expect(await ownScratchSchemas(w.app.db)).toEqual([]);
    // Kept when it succeeds, for the caller to inspect.
    const kept = await replay({ dropScratch: false });
    expect(await ownScratchSchemas(w.app.db)).toEqual([kept.scratchSchema]);
    await w.app.db.query(`drop schema "${kept.scratchSchema}" cascade`);
  });

  it('rebuilds identical scratch tables with the SQL projector and the memory projector (also evicting)', async () => {
    const kept: string[] = [];
    try {
      const sql = await replay({ projector: 'sql', dropScratch: false });
      kept.push(sql.scratchSchema);
      expect(sql).toMatchObject({ projector: 'sql', memoryProjection: null, ok: true });
      // Pages of 3 events and a bound of 1 row force an eviction after nearly every page and
      // load-backs of transactions and pending transfers (settlements always ask the database);
      // a bound of 20 rows evicts a few times and remembers which transactions have pending
      // transfers in the scratch schema; a write-behind after every 2 rows writes settled rows early
      // while open ones stay; the defaults hold everything to the end.
      for (const bounds of [
        {},
        { maxHeldRows: 1, batchEvents: 3 },
        { maxHeldRows: 20, batchEvents: 5 },
        { settledFlushRows: 2, batchEvents: 4 },
      ]) {
        const memory = await replay({ projector: 'memory', dropScratch: false, ...bounds });
        kept.push(memory.scratchSchema);
        expect(memory).toMatchObject({ projector: 'memory', ok: true });
        if (bounds.maxHeldRows === 1) {
          expect(memory.memoryProjection!.flushes).toBeGreaterThan(5);
          expect(memory.memoryProjection!.rowsLoadedBack).toBeGreaterThan(2);
        } else if (bounds.maxHeldRows || bounds.settledFlushRows) {
          expect(memory.memoryProjection!.flushes).toBeGreaterThan(1);
        } else expect(memory.memoryProjection).toEqual({ flushes: 1, rowsLoadedBack: 0 });
        const diff = await diffReadModels(w.app.db, sql.scratchSchema, memory.scratchSchema);
        expect(diff.differences).toEqual([]);
        // The bulk tables' keys, taken off for the load, are back, at a load-back or at the end.
        expect(await indexesByTable(w.app.db, memory.scratchSchema)).toEqual(
          await indexesByTable(w.app.db, sql.scratchSchema),
        );
        expect(diff.tablesCompared).toHaveLength(16);
        expect(diff.rowsCompared).toBeGreaterThan(30);
      }
    } finally {
      for (const name of kept) await w.app.db.query(`drop schema if exists "${name}" cascade`);
    }
  });

  it('finds and names a read-model row changed by hand', async () => {
    const account = `merchant:${w.merchantId}`;
    const { rows } = await w.app.db.query<{ v: string }>(
      `update rm_balances set credits_posted_kurus = credits_posted_kurus + 1 where account_id = $1
       returning credits_posted_kurus::text as v`,
      [account],
    );
    const { rows: txn } = await w.app.db.query<{ id: string }>(
      `update rm_transactions set state = 'approved' where state = 'rejected' and merchant_id = $1
       and transaction_id = (select transaction_id from rm_transactions where state = 'rejected' and merchant_id = $1 limit 1)
       returning transaction_id::text as id`,
      [w.merchantId],
    );
    try {
      const report = await replay();
      if (report.comparison.skipped) throw new Error('comparison skipped');
      expect(report.comparison.differences).toEqual(
        expect.arrayContaining([
          {
            table: 'rm_balances',
            key: `account_id=${account}`,
            column: 'credits_posted_kurus',
            live: Number(rows[0]!.v),
            rebuilt: Number(rows[0]!.v) - 1,
          },
          {
            table: 'rm_transactions',
            key: `transaction_id=${txn[0]!.id}`,
            column: 'state',
            live: 'approved',
            rebuilt: 'rejected',
          },
        ]),
      );
      expect(report.comparison.differences).toHaveLength(2);
      expect(report.ok).toBe(false);
      // The rebuilt copy itself is sound: the damage is in the live models only.
      expect(report.invariants).toEqual([]);
    } finally {
      await w.app.db.query(
        `update rm_balances set credits_posted_kurus = credits_posted_kurus - 1 where account_id = $1`,
        [account],
      );
      await w.app.db.query(`update rm_transactions set state = 'rejected' where transaction_id = $1`, [txn[0]!.id]);
    }
    expect((await replay()).ok).toBe(true);
  });

  it('names an approval whose callback record is missing', async () => {
    const { rows } = await w.app.db.query<{ delivery_id: string; transaction_id: string }>(
      `select delivery_id::text, transaction_id::text from cb_deliveries where outcome = 'approved' limit 1`,
    );
    const { delivery_id: deliveryId, transaction_id: transactionId } = rows[0]!;
    await w.app.db.query(`update cb_deliveries set transaction_id = gen_random_uuid() where delivery_id = $1`, [
      deliveryId,
    ]);
    try {
      const report = await replay();
      expect(report.invariants).toEqual([
        expect.objectContaining({ invariant: 'approval_has_callback_record', subject: `txn:${transactionId}` }),
      ]);
      expect(report.ok).toBe(false);
    } finally {
      await w.app.db.query(`update cb_deliveries set transaction_id = $2 where delivery_id = $1`, [
        deliveryId,
        transactionId,
      ]);
    }
  });

  it('fails at exactly the stored event that was edited in the database', async () => {
    const target = await approvalEvent(w.app.db);
    await w.app.db.query(
      `update es_events set metadata = metadata || '{"actor":"mallory"}'::jsonb where event_id = $1`,
      [target.event_id],
    );
    try {
      const report = await replay();
      expect(report.chain.brokenCount).toBe(1);
      expect(report.chain.firstBroken).toMatchObject({
        streamId: target.stream_id,
        streamVersion: target.stream_version,
        eventId: target.event_id,
        position: { commitXid: target.xid, seq: target.seq },
        reason: 'hash_mismatch',
      });
      expect(report.ok).toBe(false);
      // Found the same when the transaction's stream waited in the chain check's spill.
      const bounded = await replay({ maxStreamHeads: 2 });
      expect(bounded.chain.spilled).toBe(true);
      expect(bounded.chain.broken).toEqual(report.chain.broken);
    } finally {
      await w.app.db.query(`update es_events set metadata = $2::jsonb where event_id = $1`, [
        target.event_id,
        target.metadata,
      ]);
    }
    expect((await replay()).chain.brokenCount).toBe(0);
  });

  it('rebuilds the balances as of an earlier moment (time and position), and narrows to one merchant', async () => {
    for (const until of [
      { kind: 'time' as const, at: w.midway.at },
      { kind: 'position' as const, position: w.midway.position },
    ]) {
      const report = await replay({ until });
      expect(report.comparison.skipped).toBe(true);
      expect(report.replayedUntil).toEqual(w.midway.position);
      expect(new Map(report.balances.map((b) => [b.merchantId, b.availableKurus]))).toEqual(w.midway.balances);
    }
    expect(await balances(w.app)).not.toEqual(w.midway.balances);

    // A difference in the other merchant's rows is not this merchant's concern.
    await w.app.db.query(`update rm_balances set debits_posted_kurus = debits_posted_kurus + 7 where account_id = $1`, [
      `merchant:${w.otherMerchantId}`,
    ]);
    try {
      const narrow = await replay({ merchant: 'callbacks' });
      expect(narrow.merchant).toEqual({ merchantId: w.merchantId, name: 'Callbacks' });
      expect(narrow.balances.map((b) => b.merchantId)).toEqual([w.merchantId]);
      if (narrow.comparison.skipped) throw new Error('comparison skipped');
      expect(narrow.comparison.differences).toEqual([]);
      expect(narrow.comparison.tablesCompared.sort()).toEqual([
        'rm_balances',
        'rm_merchants',
        'rm_providers',
        'rm_transactions',
        'rm_transfers',
      ]);
      const other = await replay({ merchant: w.otherMerchantId });
      if (other.comparison.skipped) throw new Error('comparison skipped');
      expect(other.comparison.differences).toEqual([
        expect.objectContaining({ table: 'rm_balances', column: 'debits_posted_kurus' }),
      ]);
      await expect(replay({ merchant: 'nobody' })).rejects.toThrow(ReplayUsageError);
    } finally {
      await w.app.db.query(
        `update rm_balances set debits_posted_kurus = debits_posted_kurus - 7 where account_id = $1`,
        [`merchant:${w.otherMerchantId}`],
      );
    }
  });

  it('runs as `transfergate replay`: exit codes, --json, --merchant, --until', async () => {
    expect(existsSync(MAIN)).toBe(true); // npm test builds first
    let env: Record<string, string>;
    const args: string[] = [];
    let withDb: <T>(work: (db: SqlDatabase) => Promise<T>) => Promise<T>;
    if (engine === 'postgres') {
      env = { DATABASE_URL: TEST_DATABASE_URL };
      args.push('--schema', schema);
      withDb = (work) => work(w.app.db);
    } else {
      // PGlite is single-process: the app lets go of its data directory first.
      await w.app.close();
      closed = true;
      env = { DATA_DIR: w.dataDir };
      withDb = async (work) => {
        const db = await openPglite(join(w.dataDir, 'pgdata'));
        try {
          return await work(db);
        } finally {
          await db.close();
        }
      };
    }
    const clean = cli(args, env);
    expect({ status: clean.status, stderr: clean.stderr }).toMatchObject({ status: 0 });
    expect(clean.report).toMatchObject({
      ok: true,
      exitCode: 0,
      projector: 'memory',
      chain: { brokenCount: 0 },
      invariants: [],
    });
    // The store given by option, as `transfergate statement` takes it, with nothing in the environment.
    const byOption = cli(
      engine === 'postgres' ? [...args, '--database-url', TEST_DATABASE_URL] : ['--data-dir', w.dataDir],
      {},
    );
    expect({ status: byOption.status, stderr: byOption.stderr }).toMatchObject({ status: 0 });
    expect(byOption.report).toMatchObject({ ok: true, exitCode: 0 });
    const nobody = cli([...args, '--merchant', 'Nobody'], env);
    expect(nobody.status).toBe(2);
    expect(nobody.stderr).toContain('no merchant with id or name "Nobody"');
    const viaSql = cli([...args, '--projector', 'sql'], env);
    expect({ status: viaSql.status, stderr: viaSql.stderr }).toMatchObject({ status: 0 });
    expect(viaSql.report).toMatchObject({ ok: true, projector: 'sql', memoryProjection: null });
    expect(cli([...args, '--projector', 'fast'], env).status).toBe(2);
    // The built reader (a server) and the calling thread (PGlite) spill past a bound of 2 streams.
    const bounded = cli([...args, '--max-stream-heads', '2'], env);
    expect({ status: bounded.status, stderr: bounded.stderr }).toMatchObject({ status: 0 });
    expect(bounded.report).toMatchObject({ ok: true, chain: { brokenCount: 0, spilled: true } });
    expect(bounded.report?.chain.eventsChecked).toBe(clean.report?.chain.eventsChecked);
    expect(clean.report?.chain.spilled).toBe(false);
    expect(cli([...args, '--max-stream-heads', '0'], env).status).toBe(2);

    const narrow = cli([...args, '--merchant', 'Acme', '--until', w.midway.at], env);
    expect({ status: narrow.status, stderr: narrow.stderr }).toMatchObject({ status: 0 });
    expect(narrow.report?.comparison).toMatchObject({ skipped: true });
    expect(narrow.report?.balances).toEqual([
      expect.objectContaining({
        merchantId: w.otherMerchantId,
        availableKurus: w.midway.balances.get(w.otherMerchantId),
      }),
    ]);
    expect(cli([...args, '--until', 'yesterday'], env).status).toBe(2);

    const account = `merchant:${w.merchantId}`;
    await withDb((db) =>
      db.query(`update rm_balances set debits_pending_kurus = debits_pending_kurus + 5 where account_id = $1`, [
        account,
      ]),
    );
    const differs = cli(args, env);
    expect({ status: differs.status, stderr: differs.stderr }).toMatchObject({ status: 4 });
    expect(differs.report?.comparison).toMatchObject({
      differences: [{ table: 'rm_balances', key: `account_id=${account}`, column: 'debits_pending_kurus' }],
    });

    const target = await withDb(approvalEvent);
    await withDb((db) =>
      db.query(`update es_events set data = data || '{"amountKurus":"1"}'::jsonb where event_id = $1`, [
        target.event_id,
      ]),
    );
    const broken = cli(args, env);
    expect({ status: broken.status, stderr: broken.stderr }).toMatchObject({ status: 3 });
    expect(broken.report?.chain.firstBroken).toMatchObject({
      eventId: target.event_id,
      streamVersion: target.stream_version,
    });
  }, 240_000);
});

/** The second approval of the workload: an event in the middle of the store. */
async function approvalEvent(db: SqlDatabase) {
  const { rows } = await db.query<{
    event_id: string;
    stream_id: string;
    stream_version: number;
    xid: string;
    seq: string;
    metadata: string;
  }>(
    `select event_id::text, stream_id, stream_version, xid::text as xid, seq::text as seq, metadata::text as metadata
     from es_events where type = 'TransactionApproved' order by es_events.seq limit 1 offset 1`,
  );
  return rows[0]!;
}
