import type { DataProvider, GetListParams, GetListResult, RaRecord } from 'react-admin';
import type { PanelCursorPage, PanelTransaction, PanelTransactionDetail } from '@transfergate/contracts/panel';
import { dataProviders as logProviders } from '../resources/logs/index';
import { dataProviders as recordProviders } from '../resources/records/index';
import { panelFetch } from './http';

/** The page size limit of the panel's cursor lists (TRANSACTION_LIST_MAX_LIMIT; only types come from the contract). */
const MAX_PAGE_SIZE = 200;
/** Jumping far ahead walks the cursor chain page by page; bound the walk. */
const MAX_PAGE_WALK = 50;
/** An export's bound: a spreadsheet of a day's busiest queue, not the whole history. */
const MAX_EXPORT_ROWS = 5_000;

/**
 * The panel's lists are keyset-paginated (newest first, `nextCursor`), react-admin's are
 * page-numbered. This keeps the cursor that starts each page already seen, per list and filter,
 * so page n is one request once page n-1 was shown; the answer has `pageInfo` (react-admin's
 * partial pagination) instead of a total the API does not count.
 */
const cursorChains = new Map<string, Array<string | null>>();

export async function cursorList<T extends { id: string }>(
  path: string,
  query: Record<string, string | number | undefined>,
  params: Pick<GetListParams, 'pagination'>,
): Promise<GetListResult<T & RaRecord>> {
  const page = Math.max(1, params.pagination?.page ?? 1);
  const wanted = Math.max(1, params.pagination?.perPage ?? 25);
  // An export asks for everything at once (page 1, up to MAX_EXPORT_ROWS): walk the cursor pages.
  if (page === 1 && wanted > MAX_PAGE_SIZE) return walkAll<T>(path, query, Math.min(wanted, MAX_EXPORT_ROWS));
  const perPage = Math.min(MAX_PAGE_SIZE, wanted);
  const key = JSON.stringify([path, query, perPage]);
  // chain[i] = the cursor of page i+1 (null for the first page).
  const chain = cursorChains.get(key) ?? [null];
  cursorChains.set(key, chain);
  if (page - chain.length > MAX_PAGE_WALK) throw new Error(`page ${page} is too far ahead`);
  for (let known = chain.length; known < page; known += 1) {
    const previous = await panelFetch<PanelCursorPage<T>>(path, {
      query: { ...query, limit: perPage, cursor: chain[known - 1] ?? undefined },
    });
    if (!previous.nextCursor) return { data: [], pageInfo: { hasNextPage: false, hasPreviousPage: page > 1 } };
    chain[known] = previous.nextCursor;
  }
  const answer = await panelFetch<PanelCursorPage<T>>(path, {
    query: { ...query, limit: perPage, cursor: chain[page - 1] ?? undefined },
  });
  const data = answer.items as Array<T & RaRecord>;
  if (answer.nextCursor) {
    chain[page] = answer.nextCursor;
    return { data, pageInfo: { hasNextPage: true, hasPreviousPage: page > 1 } };
  }
  // The last page: now the total is known.
  return { data, total: (page - 1) * perPage + data.length };
}

async function walkAll<T extends { id: string }>(
  path: string,
  query: Record<string, string | number | undefined>,
  limit: number,
): Promise<GetListResult<T & RaRecord>> {
  const data: Array<T & RaRecord> = [];
  let cursor: string | undefined;
  do {
    const answer = await panelFetch<PanelCursorPage<T>>(path, {
      query: { ...query, limit: Math.min(MAX_PAGE_SIZE, limit - data.length), cursor },
    });
    data.push(...(answer.items as Array<T & RaRecord>));
    cursor = answer.nextCursor ?? undefined;
  } while (cursor && data.length < limit);
  return { data, total: data.length };
}

/** Sort fields of the queues' columns and what the API calls them. */
const SORTS: Record<string, string> = {
  createdAt: 'createdAt',
  amount: 'amount',
  number: 'number',
  urgency: 'urgency',
};

function notSupported(resource: string, method: string): never {
  throw new Error(`${method} is not available for ${resource}`);
}

/** deposits / withdrawals: GET /panel/transactions?type=… and GET /panel/transactions/:id. */
function transactionProvider(type: 'deposit' | 'withdrawal'): Partial<DataProvider> {
  const provider: Partial<Record<keyof DataProvider, (resource: string, params: never) => Promise<unknown>>> = {
    getList: (_resource, params: GetListParams) => {
      const filter = (params.filter ?? {}) as Record<string, unknown>;
      const text = (name: string) =>
        typeof filter[name] === 'string' && filter[name] ? String(filter[name]) : undefined;
      const states = Array.isArray(filter.state) ? (filter.state as string[]).join(',') : text('state');
      return cursorList<PanelTransaction>(
        '/panel/transactions',
        {
          type,
          state: states || undefined,
          q: text('q'),
          merchantId: text('merchantId'),
          from: text('from'),
          to: text('to'),
          amountMin: text('amountMin'),
          amountMax: text('amountMax'),
          bankAccountId: text('bankAccountId'),
          ...(params.sort?.field && SORTS[params.sort.field]
            ? { sort: SORTS[params.sort.field], order: params.sort.order === 'ASC' ? 'asc' : 'desc' }
            : {}),
        },
        params,
      );
    },
    getOne: async (_resource, params: { id: string | number }) => ({
      data: await panelFetch<PanelTransactionDetail>(`/panel/transactions/${encodeURIComponent(String(params.id))}`),
    }),
    getMany: async (_resource, params: { ids: Array<string | number> }) => ({
      data: await Promise.all(
        params.ids.map((id) =>
          panelFetch<PanelTransactionDetail>(`/panel/transactions/${encodeURIComponent(String(id))}`),
        ),
      ),
    }),
  };
  // react-admin's generic signatures (RecordType chosen by the caller) cannot be met by a concrete shape.
  return provider as unknown as Partial<DataProvider>;
}

const own: Record<string, Partial<DataProvider>> = {
  deposits: transactionProvider('deposit'),
  withdrawals: transactionProvider('withdrawal'),
};

const byResource: Record<string, Partial<DataProvider>> = { ...recordProviders, ...logProviders, ...own };

const METHODS = [
  'getList',
  'getOne',
  'getMany',
  'getManyReference',
  'create',
  'update',
  'updateMany',
  'delete',
  'deleteMany',
] as const;

/** Dispatches each call to the provider of its resource (the screens' own modules supply them). */
export const dataProvider = Object.fromEntries(
  METHODS.map((method) => [
    method,
    (resource: string, params: unknown) => {
      const handler = byResource[resource]?.[method] as ((r: string, p: unknown) => Promise<unknown>) | undefined;
      if (!handler) return notSupported(resource, method);
      return handler(resource, params);
    },
  ]),
) as unknown as DataProvider;
