import type { DataProvider, GetListParams, RaRecord } from 'react-admin';
import type { PanelRecordList, PanelRecordWriteResponse } from '@transfergate/contracts/panel';
import { panelFetch } from '../../../api/http';
import { listFromRows } from './client-list';
import { overlayList, overlayOne, rememberWrite } from './recent-writes';

/** R: the screen's record; W: the record as the API answers it (the contract's shape; R unless decorated). */
export interface RecordProviderSpec<R extends RaRecord, W = R> {
  /** GET: `{ items }` with every record (the record routes do not page). */
  listPath: string;
  /** GET one by id (the record's id is what the path takes). */
  onePath: (id: R['id']) => string;
  /** Filters the API applies itself (passed as query), e.g. includeDeleted. */
  serverFilters?: (filter: Record<string, unknown>) => Record<string, string | undefined>;
  /** Turns each answered row into the screen's record (roles: id = name); required when W is not R. */
  toRecord?: (row: W) => R;
  /** POST path and body of create and update; the body holds only what the API accepts. */
  savePath?: string;
  toSaveBody?: (data: Partial<R>, previous?: R) => Record<string, unknown>;
  /** POST path and body of delete. */
  deletePath?: string;
  toDeleteBody?: (record: R) => Record<string, unknown>;
}

/** A react-admin data provider over one record kind of the panel API (save is keyed by natural key). */
export function recordProvider<R extends RaRecord, W = R>(spec: RecordProviderSpec<R, W>): Partial<DataProvider> {
  const decorate = spec.toRecord ?? ((row: W) => row as unknown as R);
  async function all(filter: Record<string, unknown> = {}): Promise<R[]> {
    const query = spec.serverFilters?.(filter) ?? {};
    const answer = await panelFetch<PanelRecordList<W>>(spec.listPath, { query });
    let rows = overlayList(spec.listPath, answer.items.map(decorate), filter.includeDeleted === true);
    // Our own writes laid over must still match what the server filtered on (providers of one merchant).
    for (const [key, value] of Object.entries(query)) {
      if (key !== 'includeDeleted' && value !== undefined) {
        rows = rows.filter((row) => String((row as Record<string, unknown>)[key]) === value);
      }
    }
    return rows;
  }
  function clientFilter(filter: Record<string, unknown>): Record<string, unknown> {
    const serverKeys = Object.keys(spec.serverFilters?.({}) ?? {});
    return Object.fromEntries(Object.entries(filter).filter(([key]) => !serverKeys.includes(key)));
  }
  async function save(data: Partial<R>, previous?: R): Promise<R> {
    if (!spec.savePath || !spec.toSaveBody) throw new Error('this record kind cannot be saved');
    // Disabled inputs (the record's key) are left out of react-hook-form's values: take them, and
    // anything else the form did not hold, from the record as it was.
    const defined = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
    const merged = (previous ? { ...previous, ...defined } : data) as Partial<R>;
    const answer = await panelFetch<PanelRecordWriteResponse<W>>(spec.savePath, {
      body: spec.toSaveBody(merged, previous),
    });
    const record = decorate(answer.record);
    rememberWrite(spec.listPath, record);
    return record;
  }
  const provider: Partial<DataProvider> = {
    getList: async (_resource, params: GetListParams) => {
      const filter = (params.filter ?? {}) as Record<string, unknown>;
      return listFromRows(await all(filter), { ...params, filter: clientFilter(filter) }) as never;
    },
    getOne: async (_resource, params) =>
      ({ data: overlayOne(spec.listPath, decorate(await panelFetch<W>(spec.onePath(params.id)))) }) as never,
    getMany: async (_resource, params) => {
      const wanted = new Set(params.ids.map(String));
      return { data: (await all()).filter((row) => wanted.has(String(row.id))) } as never;
    },
    getManyReference: async (_resource, params) => {
      const filter = { ...(params.filter ?? {}), [params.target]: params.id } as Record<string, unknown>;
      return listFromRows(await all(filter), { ...params, filter: clientFilter(filter) }) as never;
    },
  };
  if (spec.savePath) {
    provider.create = async (_resource, params) => ({ data: await save(params.data as Partial<R>) }) as never;
    provider.update = async (_resource, params) =>
      ({ data: await save(params.data as Partial<R>, params.previousData as R) }) as never;
  }
  if (spec.deletePath && spec.toDeleteBody) {
    const path = spec.deletePath;
    const body = spec.toDeleteBody;
    provider.delete = async (_resource, params) => {
      const record = params.previousData as unknown as R;
      const answer = await panelFetch<Partial<PanelRecordWriteResponse<W>>>(path, { body: body(record) });
      // Soft deletes answer the record (deleted: true); role deletes answer no record.
      rememberWrite(
        spec.listPath,
        answer.record ? decorate(answer.record) : { ...record, deleted: true, updatedAt: new Date().toISOString() },
      );
      return { data: record } as never;
    };
  }
  return provider;
}

/** Keeps only the given keys whose value is set (the API treats a missing field as "unchanged"). */
export function pick<R>(data: Partial<R>, keys: (keyof R)[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of keys) {
    const value = data[key];
    if (value !== undefined && value !== null && value !== '') body[key as string] = value;
  }
  return body;
}
