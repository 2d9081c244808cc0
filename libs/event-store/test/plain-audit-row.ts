import type { AuditRow } from '../src/audit/audit-reader.js';

/** An event handed over by an audit pass, as plain data (a reader thread's row decodes its texts when read). */
export function plainAuditRow(row: AuditRow) {
  return {
    position: row.position,
    eventId: row.eventId,
    streamId: row.streamId,
    streamVersion: row.streamVersion,
    type: row.type,
    schemaVersion: row.schemaVersion,
    recordedAtUs: row.recordedAtUs,
    createdAt: row.createdAt,
    dataText: row.dataText,
    metadataText: row.metadataText,
    hash: row.hash,
  };
}
