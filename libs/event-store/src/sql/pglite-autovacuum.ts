import type { SqlDatabase } from './sql-database.js';

/**
 * PGlite runs PostgreSQL as one single-user backend: there is no autovacuum launcher. Without it,
 * tables updated in place (callback deliveries, transactions, checkpoints) keep their dead rows and
 * index entries, statistics go stale, and no row is ever frozen, so a long-lived embedded store
 * heads for transaction-id wraparound, which PostgreSQL answers by refusing writes. This does the
 * launcher's job with the server's own default rules, from a timer: a table is vacuumed (and
 * analysed) once its dead rows exceed 50 + 20 % of its rows, analysed once its changes since the last
 * analyse exceed 50 + 10 %, and vacuumed with freezing when its oldest unfrozen xid is older than
 * autovacuum_freeze_max_age. Each statement holds PGlite's one connection while it runs, so a round
 * takes at most MAX_TABLES_PER_ROUND tables, one statement at a time, and no two rounds overlap.
 */
export const AUTOVACUUM_INTERVAL_MS = 60_000;
export const MAX_TABLES_PER_ROUND = 4;

export interface AutovacuumRound {
  /** What ran, in order, e.g. `vacuum (analyze) public.cb_deliveries`. */
  statements: string[];
}

const DUE_TABLES_SQL = `
  select format('%I.%I', s.schemaname, s.relname) as name,
         case
           when s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
             or age(c.relfrozenxid) > current_setting('autovacuum_freeze_max_age')::bigint
           then 'vacuum' else 'analyze'
         end as work
  from pg_stat_user_tables s
  join pg_class c on c.oid = s.relid
  where s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
     or s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
     or age(c.relfrozenxid) > current_setting('autovacuum_freeze_max_age')::bigint
  order by age(c.relfrozenxid) > current_setting('autovacuum_freeze_max_age')::bigint desc,
           s.n_dead_tup desc, s.n_mod_since_analyze desc
  limit ${MAX_TABLES_PER_ROUND}`;

/** One round: the tables due now, at most MAX_TABLES_PER_ROUND, one statement each. */
export async function runAutovacuumRound(db: SqlDatabase): Promise<AutovacuumRound> {
  // The backend sends its counters to the statistics at most once a second while busy, else after
  // 10 s idle: ask for them now (sent when this statement ends), so the choice below is current.
  await db.query('select pg_stat_force_next_flush()');
  const { rows } = await db.query<{ name: string; work: 'vacuum' | 'analyze' }>(DUE_TABLES_SQL);
  const statements: string[] = [];
  for (const { name, work } of rows) {
    // VACUUM cannot run in a transaction or as a prepared statement: a simple query.
    const statement = work === 'vacuum' ? `vacuum (analyze) ${name}` : `analyze ${name}`;
    await db.exec(statement);
    statements.push(statement);
  }
  return { statements };
}

export interface RunningAutovacuum {
  /** Stops the timer and waits for a round in progress. */
  stop(): Promise<void>;
}

/**
 * Runs a round every `intervalMs` on an unref'd timer (it never keeps a process alive). A failed round
 * is reported and the next one runs as usual.
 */
export function startAutovacuum(
  db: SqlDatabase,
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): RunningAutovacuum {
  const intervalMs = options.intervalMs ?? AUTOVACUUM_INTERVAL_MS;
  if (!(intervalMs >= 1)) throw new RangeError('intervalMs must be >= 1');
  let round: Promise<unknown> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    if (round || stopped) return;
    round = runAutovacuumRound(db)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => (round = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round;
    },
  };
}
