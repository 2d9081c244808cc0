import type { AuditedEvent, BrokenLink, HeadFindings, RecordedHead } from '../store/event-chain.js';

/**
 * Messages between the replay's thread and the chain-check worker (chain-check.worker.ts). A page
 * travels as one flat array of the hashed fields, FIELDS_PER_EVENT values per event: a flat array
 * of strings is the cheapest shape to structured-clone (no property names per event), and the
 * sending thread pays for that copy, so it is kept small.
 */
export const FIELDS_PER_EVENT = 9;

export type StreamHead = RecordedHead;
export type HeadCheck = HeadFindings;

/** The worker's workerData. */
export interface WorkerSettings {
  /** Streams the worker's check may hold: it cannot spill, so past them it fails (bounded-chain-check.ts). */
  maxStreamHeads: number;
}

/** A broken link without its position (the sender keeps the page's positions), and its index in the page. */
export type PageLink = Omit<BrokenLink, 'position'> & { index: number };

/** `heads`: one page of the recorded heads; the worker answers with that page's findings. */
export type ToWorker = { kind: 'page'; fields: unknown[] } | { kind: 'heads'; heads: StreamHead[] };

export type FromWorker =
  | { kind: 'page'; checked: number; broken: PageLink[] }
  | { kind: 'heads'; result: HeadCheck }
  | { kind: 'failed'; message: string };

export function pageFields(rows: readonly AuditedEvent[]): unknown[] {
  const fields = new Array<unknown>(rows.length * FIELDS_PER_EVENT);
  let i = 0;
  for (const r of rows) {
    fields[i++] = r.streamId;
    fields[i++] = r.streamVersion;
    fields[i++] = r.type;
    fields[i++] = r.schemaVersion;
    fields[i++] = r.eventId;
    fields[i++] = r.recordedAtUs;
    fields[i++] = r.dataText;
    fields[i++] = r.metadataText;
    fields[i++] = r.hash;
  }
  return fields;
}

/** The events of a page as the verifier takes them; `position` is a stand-in (links get theirs back by index). */
export function pageEvents(fields: readonly unknown[], position: AuditedEvent['position']): AuditedEvent[] {
  if (fields.length % FIELDS_PER_EVENT !== 0) throw new Error('chain check: a page of partial events');
  const events: AuditedEvent[] = [];
  for (let i = 0; i < fields.length; i += FIELDS_PER_EVENT) {
    events.push({
      streamId: fields[i] as string,
      streamVersion: fields[i + 1] as number,
      type: fields[i + 2] as string,
      schemaVersion: fields[i + 3] as number,
      eventId: fields[i + 4] as string,
      recordedAtUs: fields[i + 5] as string,
      dataText: fields[i + 6] as string,
      metadataText: fields[i + 7] as string,
      hash: fields[i + 8] as string | null,
      position,
    });
  }
  return events;
}
