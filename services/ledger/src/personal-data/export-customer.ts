import { customerIdentities, type CustomerReference } from '@transfergate/contracts';
import type { PersonalDataCodec, SqlDatabase } from '@transfergate/event-store';
import { eventsUnder } from './erase-customer.js';

/** One personal field held about the customer, where and since when. */
export interface HeldField {
  recordedAt: string;
  eventType: string;
  /** The transaction (`txn-…`) or statement (`bank-statement-…`) stream it is part of. */
  streamId: string;
  field: string;
  value: string;
}

export interface SubjectAccessExport {
  generatedAt: string;
  /** How many identities (user id, name, name and IBAN) were looked up, and how many are held. */
  identitiesLookedUp: number;
  identitiesHeld: number;
  fields: HeldField[];
}

/**
 * Everything held about one customer (a data subject's access request, KVKK art. 11, GDPR art. 15):
 * every personal field of every event under the customer's keys, decrypted, in recorded order. The
 * read models and logs hold copies of these same fields only. Erased fields read as erased.
 */
export async function exportCustomer(
  db: SqlDatabase,
  codec: PersonalDataCodec,
  customer: CustomerReference,
  nowMs: number = Date.now(),
): Promise<SubjectAccessExport> {
  const identities = customerIdentities(customer);
  const subjectIds = [...new Set(identities.map((identity) => codec.keys.subjectIdOf(identity)))];
  const { rows } = await db.query<{ key_ref: string; subject_id: string }>(
    `select key_ref, subject_id from pd_data_keys where subject_id = any($1::text[])`,
    [subjectIds],
  );
  const events =
    rows.length > 0
      ? await codec.decrypt(
          await eventsUnder(
            db,
            rows.map((r) => r.key_ref),
          ),
        )
      : [];
  const fields: HeldField[] = [];
  for (const event of events) {
    const declared = codec.policy.fieldsOf(event.type);
    if (!declared) continue;
    codec.visitPersonalStrings(event.data, declared, (value, field) =>
      fields.push({ recordedAt: event.createdAt, eventType: event.type, streamId: event.streamId, field, value }),
    );
  }
  return {
    generatedAt: new Date(nowMs).toISOString(),
    identitiesLookedUp: identities.length,
    identitiesHeld: new Set(rows.map((r) => r.subject_id)).size,
    fields,
  };
}

const CSV_HEADER = ['recorded_at', 'event', 'stream', 'field', 'value'] as const;

/** The export as a readable CSV (RFC 4180; a cell starting with = + - @ is prefixed with ' for spreadsheets). */
export function subjectAccessCsv(report: SubjectAccessExport): string {
  const cell = (text: string) => {
    const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  const lines = [CSV_HEADER.join(',')];
  for (const f of report.fields)
    lines.push([f.recordedAt, f.eventType, f.streamId, f.field, f.value].map(cell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
