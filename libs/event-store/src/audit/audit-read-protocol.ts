import type { BrokenLink } from '../store/event-chain.js';
import type { GlobalPosition } from '../store/event-store.js';
import type { PostgresConnection } from '../sql/postgres-database.js';
import { createdAtOf, type AuditRow } from './audit-reader.js';
import type { HeadCheck } from './chain-check-protocol.js';

/**
 * Messages between an audit pass (audit-pass.ts) and its reader thread (audit-read.worker.ts).
 * A page's events travel as one flat array, FIELDS_PER_ROW values per event: the cheapest shape to
 * structured-clone (no property names per event).
 */
export interface ReaderSettings {
  connection: PostgresConnection;
  readUntil: GlobalPosition;
  projectUntil: GlobalPosition;
  batchEvents: number;
  /** Pages sent and not yet taken, at most. */
  pagesAhead: number;
  /** Streams the chain check holds before it spills (bounded-chain-check.ts). */
  maxStreamHeads: number;
}

export type ToReader = { kind: 'taken' } | { kind: 'heads' };

export type FromReader =
  /** `read` events checked; `fields` the ones up to projectUntil; `broken` the page's links, in order. */
  | { kind: 'page'; read: number; fields: unknown[]; broken: BrokenLink[] }
  /** After the last page; `spilled`: the chain check held more than maxStreamHeads streams. */
  | { kind: 'end'; spilled: boolean }
  | { kind: 'heads'; result: HeadCheck }
  | { kind: 'failed'; message: string };

export const FIELDS_PER_ROW = 11;

export function pushRowFields(fields: unknown[], row: AuditRow): void {
  fields.push(
    row.position.commitXid,
    row.position.seq,
    row.eventId,
    row.streamId,
    row.streamVersion,
    row.type,
    row.schemaVersion,
    row.recordedAtUs,
    row.dataText,
    row.metadataText,
    row.hash,
  );
}

export function rowsOfFields(fields: readonly unknown[]): AuditRow[] {
  if (fields.length % FIELDS_PER_ROW !== 0) throw new Error('audit read: a page of partial events');
  const rows: AuditRow[] = [];
  for (let i = 0; i < fields.length; i += FIELDS_PER_ROW) {
    const recordedAtUs = fields[i + 7] as string;
    rows.push({
      position: { commitXid: fields[i] as string, seq: fields[i + 1] as string },
      eventId: fields[i + 2] as string,
      streamId: fields[i + 3] as string,
      streamVersion: fields[i + 4] as number,
      type: fields[i + 5] as string,
      schemaVersion: fields[i + 6] as number,
      recordedAtUs,
      createdAt: createdAtOf(recordedAtUs),
      dataText: fields[i + 8] as string,
      metadataText: fields[i + 9] as string,
      hash: fields[i + 10] as string | null,
    });
  }
  return rows;
}
