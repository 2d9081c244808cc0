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

/** A schema's indexes, by table, each as its definition without the schema's name (so two schemas compare). */
export async function indexesByTable(db: SqlExecutor, schema: string): Promise<Record<string, string[]>> {
  const { rows } = await db.query<{ t: string; def: string }>(
    `select tablename as t, indexdef as def from pg_indexes where schemaname = $1 order by tablename, indexname`,
    [schema],
  );
  const byTable: Record<string, string[]> = {};
  for (const { t, def } of rows) (byTable[t] ??= []).push(def.replace(`${schema}.`, ''));
  return byTable;
}
