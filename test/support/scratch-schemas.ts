import type { SqlExecutor } from '@transfergate/event-store';

/**
 * The replay scratch schemas this process made (`tg_replay_<pid>_…`), by name: the server is shared
 * by the suites running beside this one, so another process's replays must not count.
 */
export async function ownScratchSchemas(db: SqlExecutor): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `select nspname as name from pg_namespace where starts_with(nspname, $1) order by nspname`,
    [`tg_replay_${process.pid}_`],
  );
  return rows.map((row) => row.name);
}
