import type { GetListParams, GetListResult, RaRecord } from 'react-admin';

/**
 * The record routes answer every record of a kind at once (they are configuration: tens to a few
 * thousand rows), so lists filter, sort and paginate here. `q` matches any text field; every other
 * filter is an equality on its field.
 */
export const MAX_PER_PAGE = 500;

function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(textOf).join(' ');
  return typeof value === 'object' ? '' : String(value);
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? -1 : 1;
  return textOf(a).localeCompare(textOf(b), 'tr', { sensitivity: 'base' });
}

export function listFromRows<R extends RaRecord>(rows: R[], params: GetListParams): GetListResult<R> {
  const filter = (params.filter ?? {}) as Record<string, unknown>;
  const q = typeof filter.q === 'string' ? filter.q.trim().toLocaleLowerCase('tr') : '';
  const matching = rows.filter((row) => {
    const fields = row as Record<string, unknown>;
    for (const [key, wanted] of Object.entries(filter)) {
      if (key === 'q' || wanted === undefined || wanted === '') continue;
      if (fields[key] !== wanted) return false;
    }
    if (!q) return true;
    return Object.values(fields).some((value) => textOf(value).toLocaleLowerCase('tr').includes(q));
  });
  const field = params.sort?.field;
  if (field) {
    const direction = params.sort?.order === 'DESC' ? -1 : 1;
    matching.sort(
      (a, b) => direction * compare((a as Record<string, unknown>)[field], (b as Record<string, unknown>)[field]),
    );
  }
  const perPage = Math.min(Math.max(params.pagination?.perPage ?? 25, 1), MAX_PER_PAGE);
  const page = Math.max(params.pagination?.page ?? 1, 1);
  const start = (page - 1) * perPage;
  return { data: matching.slice(start, start + perPage), total: matching.length };
}
