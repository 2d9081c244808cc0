import type { RaRecord } from 'react-admin';

/**
 * Read-your-own-writes for the record screens. A save answers the record as written, but the list
 * routes read projections that may apply the event a moment later (milliseconds; seconds on a busy
 * machine), and react-admin refetches the list right after a save: without this the operator would
 * not see the merchant just created. We remember each record this tab wrote for a short while and
 * lay it over list and detail answers until the projection has caught up (its `updatedAt` is as
 * new) or the memory expires.
 */
const REMEMBER_MS = 30_000;
/** Bounded: an operator writes a handful of records a minute. */
const MAX_REMEMBERED = 200;

interface Remembered {
  record: RaRecord & { updatedAt?: string | null; deleted?: boolean };
  atMs: number;
}

const writes = new Map<string, Map<string, Remembered>>();

export function rememberWrite(kind: string, record: RaRecord): void {
  let byId = writes.get(kind);
  if (!byId) writes.set(kind, (byId = new Map()));
  byId.delete(String(record.id));
  byId.set(String(record.id), { record, atMs: Date.now() });
  if (byId.size > MAX_REMEMBERED) byId.delete(byId.keys().next().value as string);
}

function live(kind: string): Map<string, Remembered> {
  const byId = writes.get(kind) ?? new Map<string, Remembered>();
  const now = Date.now();
  for (const [id, entry] of byId) if (now - entry.atMs > REMEMBER_MS) byId.delete(id);
  return byId;
}

/** The newer of the projection's row and our own write (ISO instants compare as text). */
function newer<R extends RaRecord>(row: R | undefined, mine: Remembered | undefined): R | undefined {
  if (!mine) return row;
  const theirs = (row as { updatedAt?: string | null } | undefined)?.updatedAt ?? '';
  const ours = mine.record.updatedAt ?? '';
  return row && theirs >= ours ? row : (mine.record as unknown as R);
}

export function overlayOne<R extends RaRecord>(kind: string, row: R): R {
  return newer(row, live(kind).get(String(row.id))) ?? row;
}

/** Rows with our newer writes laid over; deleted ones left out unless the list shows deleted. */
export function overlayList<R extends RaRecord>(kind: string, rows: R[], includeDeleted: boolean): R[] {
  const mine = live(kind);
  if (mine.size === 0) return rows;
  const seen = new Set<string>();
  const merged = rows.map((row) => {
    seen.add(String(row.id));
    return newer(row, mine.get(String(row.id))) ?? row;
  });
  for (const [id, entry] of mine) if (!seen.has(id)) merged.push(entry.record as unknown as R);
  return includeDeleted ? merged : merged.filter((row) => (row as { deleted?: boolean }).deleted !== true);
}
