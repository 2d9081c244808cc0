import { PGlite } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { EventLoopTurns } from './event-loop-turns.js';
import { lockDataDir } from './data-dir-lock.js';
import { isInitialisedDataDir, unpackPgliteTemplate } from './pglite-template.js';
import { PglitePreparedStatements } from './pglite-prepared.js';
import { raiseWasmTieringBudget } from './pglite-tiering.js';
import { startAutovacuum, type RunningAutovacuum } from './pglite-autovacuum.js';
import type { SqlDatabase, SqlExecutor } from './sql-database.js';

/** The embedded engine's statistics target (see PGLITE_SETTINGS). */
export const EMBEDDED_STATISTICS_TARGET = 10;

/**
 * PostgreSQL's default shared_buffers (128 MB) is sized for a server; in PGlite it is WASM memory
 * the process touches at start and holds for good (idle RSS grows with it one for one: 306 MB at
 * 32 MB, 410 at 128). A page missing from the pool is a file read through the WASM file system and
 * an evicted dirty one a write, on the main thread: at 32 MB the bench's deposit rates fell by 26-40%
 * between the bench's early and late phases, as the store's unique indexes outgrew the pool. 64 MB keeps idle
 * RSS under 370 MB (the goal is under 400) and the indexes in the pool about twice as long.
 */
const PGLITE_SETTINGS = [
  'shared_buffers=64MB',
  // Statements run as named prepared statements (pglite-prepared.ts) with one cached plan each,
  // kept in step with the tables' growth by pglite-plan-freshness.ts. Measured on the group append
  // of 24 deposits: 4.6 ms as an unnamed statement, 3.6 ms prepared with a plan per run, 2.6 ms
  // with its cached plan; a single append 1.1 / 0.6 / 0.26 ms.
  'plan_cache_mode=force_generic_plan',
  // Statistics from a 3,000-row sample instead of 30,000 (PostgreSQL's default before 8.4). PGlite
  // has one connection, so each ANALYZE of the embedded autovacuum (pglite-autovacuum.ts) holds every
  // request in flight: at about 280,000 events `analyze es_events` took 262-487 ms, rm_transactions
  // 198-228 and es_streams 92-160, each a p99 spike for the deposits of that moment; at 10, 23-48 ms.
  // The generic plans above do not read the histograms and MCV lists whose resolution this lowers;
  // literals in SQL text still do, and the states, types and forms they name are fewer than 10.
  `default_statistics_target=${EMBEDDED_STATISTICS_TARGET}`,
  // A new 16 MB WAL segment is created by writing its last byte, not by writing 16 MB of zeros. Through
  // the WASM file system (one fs.writeSync per 8 kB block, on the main thread) the zeros held every
  // request for about 47 ms once per segment: every 1.3-1.6 s under the bench's deposits, the p99 of
  // the Infrastructure form. The zeros only reserve disk space ahead of the WAL writes (PostgreSQL
  // offers this for copy-on-write file systems); without them a full disk fails a later WAL write
  // instead of the segment's creation, and PGlite runs without fsync anyway.
  'wal_init_zero=off',
];

/**
 * Embedded PostgreSQL (PGlite, WASM). One connection: PGlite queues statements and runs
 * transactions one at a time, so concurrency here is serialised by the engine itself.
 * `dataDir` undefined means in memory (tests).
 */
export async function openPglite(dataDir?: string): Promise<SqlDatabase> {
  // The lock file sits beside the data directory.
  if (dataDir) mkdirSync(dirname(dataDir), { recursive: true });
  // Before anything touches the files: a second process on one data directory corrupts it.
  const lock = dataDir ? await lockDataDir(dataDir) : undefined;
  let db: PGlite;
  try {
    if (dataDir) {
      // An empty store unpacks an initialised one instead of running initdb (pglite-template.ts).
      if (!isInitialisedDataDir(dataDir)) await unpackPgliteTemplate(dataDir);
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    }
    raiseWasmTieringBudget();
    db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), postgresqlconf: PGLITE_SETTINGS });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  // PGlite never yields to the event loop on its own (see event-loop-turns.ts).
  const turns = new EventLoopTurns();
  // Every statement runs as a named prepared statement (pglite-prepared.ts), under the same locks
  // PGlite's own query() takes: the transaction lock outside a transaction (so a statement never
  // runs inside another caller's transaction), the query lock always.
  const prepared = new PglitePreparedStatements(db);
  const run = <Row>(sql: string, params: readonly unknown[] | undefined, outsideTransaction: boolean) =>
    db._runExclusiveQuery(() => prepared.run<Row>(sql, params, outsideTransaction));

  const database: SqlDatabase = {
    kind: 'pglite',
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const turn = turns.beforeStatement();
      if (turn) await turn;
      await db._checkReady();
      const rows = await db._runExclusiveTransaction(() => run<Row>(sql, params, true));
      // As query() does after a statement outside a transaction (a no-op for the file systems used here).
      await db.syncToFs();
      return { rows };
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => {
        const executor: SqlExecutor = {
          async query<Row>(sql: string, params?: readonly unknown[]) {
            if (tx.closed) throw new Error('Transaction is closed');
            const turn = turns.beforeStatement();
            if (turn) await turn;
            return { rows: await run<Row>(sql, params, false) };
          },
        };
        return work(executor);
      });
    },
    async exec(sql: string) {
      const turn = turns.beforeStatement();
      if (turn) await turn;
      await db.exec(sql);
    },
    async close() {
      try {
        await autovacuum?.stop();
        await db.close();
      } finally {
        await lock?.release();
      }
    },
  };
  // A store on disk lives as long as the deployment: it gets the autovacuum PGlite lacks
  // (pglite-autovacuum.ts). An in-memory one (tests, scratch work) ends with its process.
  const autovacuum: RunningAutovacuum | undefined = dataDir
    ? startAutovacuum(database, {
        onError: (error) => process.emitWarning(`PGlite autovacuum round failed: ${String(error)}`),
      })
    : undefined;
  return database;
}
