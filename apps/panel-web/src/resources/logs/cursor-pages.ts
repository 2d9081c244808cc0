import type { GetListParams, GetListResult, RaRecord } from 'react-admin';
import type { PanelCursorPage } from '@transfergate/contracts/panel';

/**
 * The log routes page with keyset cursors (newest first, `nextCursor`), react-admin with page
 * numbers. For each filter combination we remember the cursor that starts each page we have seen; a
 * jump forward walks the pages in between (bounded), a jump back reuses a remembered cursor. The
 * lists answer `pageInfo`, and a total only on the last page (counting a log would cost a scan).
 */

/** A filter value as a query parameter: trimmed text, or left out when empty or not text. */
export const filterText = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** How many pages a jump may walk before it gives up (the UI only steps by one). */
const MAX_PAGES_WALKED = 20;
/** Filter combinations remembered (least recently used dropped). */
const MAX_FILTER_KEYS = 50;

export function cursorLister<R extends RaRecord>(
  fetchPage: (
    filter: Record<string, unknown>,
    limit: number,
    cursor: string | undefined,
  ) => Promise<PanelCursorPage<R>>,
) {
  const starts = new Map<string, Array<string | undefined>>();
  return async (params: GetListParams): Promise<GetListResult<R>> => {
    const filter = (params.filter ?? {}) as Record<string, unknown>;
    const perPage = Math.max(1, params.pagination?.perPage ?? 25);
    const page = Math.max(1, params.pagination?.page ?? 1);
    const key = JSON.stringify([filter, perPage]);
    const known = starts.get(key) ?? [undefined];
    starts.delete(key);
    starts.set(key, known);
    if (starts.size > MAX_FILTER_KEYS) starts.delete(starts.keys().next().value as string);

    let index = Math.min(page - 1, known.length - 1);
    if (page - 1 - index > MAX_PAGES_WALKED) throw new Error(`page ${page} is too far ahead; go page by page`);
    for (;;) {
      const answer = await fetchPage(filter, perPage, known[index]);
      // A fresh answer wins over what we remembered (new entries shift the newest pages).
      if (answer.nextCursor) known[index + 1] = answer.nextCursor;
      else known.length = index + 1;
      if (index === page - 1 || !answer.nextCursor) {
        const data = index === page - 1 ? answer.items : [];
        return {
          data,
          // On the last page the count is known; without it react-admin's pagination would say
          // "1-25 of 25" for a single row.
          ...(answer.nextCursor === null ? { total: index * perPage + answer.items.length } : {}),
          pageInfo: { hasNextPage: answer.nextCursor !== null, hasPreviousPage: page > 1 },
        };
      }
      index += 1;
    }
  };
}
