import type { SqlExecutor } from '@transfergate/event-store';
import { quoteSchema } from './scratch-schema.js';

export interface ReadModelDifference {
  table: string;
  /** Primary key, `col=value` joined by commas. */
  key: string;
  /** The differing column; `*` when the whole row exists on one side only. */
  column: string;
  live: unknown;
  rebuilt: unknown;
}

export interface DiffResult {
  differences: ReadModelDifference[];
  tablesCompared: string[];
  rowsCompared: number;
  /** true when a table had more differing rows than were listed. */
  truncated: boolean;
}

/** Bound per table (TIGER_STYLE): a wholly different table must not flood the report. */
export const MAX_DIFFERING_ROWS_PER_TABLE = 500;

/** How a table's rows belong to one merchant; tables without a merchant are left out when narrowing. */
function merchantFilter(table: string, columns: Set<string>): string | undefined {
  if (table === 'rm_balances') return `coalesce(l.account_id, r.account_id) = 'merchant:' || $1`;
  if (columns.has('merchant_id')) return `coalesce(l.merchant_id, r.merchant_id) = $1`;
  return undefined;
}

/**
 * Compares every table of the rebuilt schema with the live table of the same name, row by row on
 * the primary key, column by column on the values as jsonb (numbers, text and timestamps exactly).
 */
export async function diffReadModels(
  db: SqlExecutor,
  liveSchema: string,
  rebuiltSchema: string,
  merchantId?: string,
): Promise<DiffResult> {
  const { rows: tables } = await db.query<{ table_name: string; key: string[]; columns: string[] }>(
    `select c.relname as table_name,
            (select array_agg(a.attname::text order by k.ord) from unnest(i.indkey) with ordinality k(attnum, ord)
               join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum) as key,
            (select array_agg(a.attname::text order by a.attnum) from pg_attribute a
               where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     join pg_index i on i.indrelid = c.oid and i.indisprimary
     where n.nspname = $1 and c.relkind = 'r' order by c.relname`,
    [rebuiltSchema],
  );
  const live = quoteSchema(liveSchema);
  const rebuilt = quoteSchema(rebuiltSchema);
  const differences: ReadModelDifference[] = [];
  const compared: string[] = [];
  let rowsCompared = 0;
  let truncated = false;
  for (const t of tables) {
    const filter = merchantId === undefined ? 'true' : merchantFilter(t.table_name, new Set(t.columns));
    if (filter === undefined) continue;
    compared.push(t.table_name);
    const table = `"${t.table_name}"`;
    const using = t.key.map((k) => `"${k}"`).join(', ');
    const params = merchantId === undefined ? [] : [merchantId];
    const { rows: counted } = await db.query<{ n: string }>(
      `select count(*)::text as n from ${live}.${table} l full join ${rebuilt}.${table} r using (${using}) where ${filter}`,
      params,
    );
    rowsCompared += Number(counted[0]!.n);
    const { rows } = await db.query<{ live: Record<string, unknown> | null; rebuilt: Record<string, unknown> | null }>(
      `select to_jsonb(l) as live, to_jsonb(r) as rebuilt
       from ${live}.${table} l full join ${rebuilt}.${table} r using (${using})
       where ${filter} and to_jsonb(l) is distinct from to_jsonb(r)
       order by ${t.key.map((k) => `"${k}"`).join(', ')} limit ${MAX_DIFFERING_ROWS_PER_TABLE + 1}`,
      params,
    );
    if (rows.length > MAX_DIFFERING_ROWS_PER_TABLE) truncated = true;
    for (const row of rows.slice(0, MAX_DIFFERING_ROWS_PER_TABLE)) {
      const either = (row.live ?? row.rebuilt)!;
      const key = t.key.map((k) => `${k}=${String(either[k])}`).join(',');
      if (!row.live || !row.rebuilt) {
        differences.push({ table: t.table_name, key, column: '*', live: row.live, rebuilt: row.rebuilt });
        continue;
      }
      for (const column of new Set([...Object.keys(row.live), ...Object.keys(row.rebuilt)])) {
        const a = row.live[column];
        const b = row.rebuilt[column];
        if (JSON.stringify(a) !== JSON.stringify(b)) {
          differences.push({ table: t.table_name, key, column, live: a ?? null, rebuilt: b ?? null });
        }
      }
    }
  }
  return { differences, tablesCompared: compared, rowsCompared, truncated };
}
