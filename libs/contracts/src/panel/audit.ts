import { Query } from '@nestjs/cqrs';
import { z } from 'zod';
import { rawText } from '../http/text.js';

/**
 * GET /panel/audit: operator actions from the event stream (docs/architecture.md: the event stream is the
 * audit trail). An entry is an event written from the panel or the provisioning file, or any
 * configuration event; configuration entries carry the record before (the stream's previous event)
 * and after. Secrets are redacted by the ledger before an entry leaves it.
 */
export const AUDIT_REDACTED = '[redacted]';

/** Event fields that hold secrets (sealed or hashed they still must not be shown). */
export const AUDIT_SECRET_FIELDS: readonly string[] = [
  'apiSecretSealed',
  'previousApiSecretSealed',
  'apiSecret',
  'passwordHash',
  'password',
  'totpSecretSealed',
  'totpSecret',
  'secret',
];

const instant = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

export const AuditQuerySchema = z.object({
  operatorId: rawText(64).optional(),
  /** One event type or several, comma-separated. */
  type: z
    .string()
    .regex(/^[A-Za-z]{1,64}(,[A-Za-z]{1,64}){0,19}$/, 'event type names, comma-separated')
    .optional(),
  /** created_at ≥ from; a date alone means 00:00 of that Turkish business day (UTC+3). */
  from: instant.optional(),
  /** created_at < to; a date alone means 00:00 of that Turkish business day (UTC+3). */
  to: instant.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  /** `nextCursor` of the previous page: the global position `xid:seq` of its last entry. */
  cursor: z
    .string()
    .regex(/^\d{1,20}:\d{1,20}$/, 'cursor is xid:seq')
    .optional(),
});
export type AuditFilters = z.infer<typeof AuditQuerySchema>;

export interface AuditEntry {
  /** Global position `xid:seq` (the commit order of the event store). */
  position: string;
  at: string;
  type: string;
  stream: string;
  streamVersion: number;
  /** metadata.actor: the operator id, or the source when no operator acted. */
  actor: string | null;
  username: string | null;
  source: string | null;
  ip: string | null;
  /** Configuration events: the record before this change (null for the first); otherwise null. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  /** Configuration events: the top-level fields that differ from `before`. */
  changes: string[] | null;
  /** Transaction events: the transaction's number, so the log can say which one. */
  transactionNumber: number | null;
  /**
   * Reconciliation events about one bank line: the line as operators find it on the bank's
   * statement (reference, amount, day) and the file it came in, so the log can name them.
   */
  statementLine: AuditStatementLine | null;
}

export interface AuditStatementLine {
  bankReference: string | null;
  amountKurus: string;
  bookedOn: string;
  fileName: string | null;
}

/**
 * Events that are parts of one reconciliation action (each line of an import, its assessment, the
 * claims a match or dismissal takes): the action's own event says it all, so the log leaves these
 * out unless they are asked for by type.
 */
export const AUDIT_COMPANION_TYPES: readonly string[] = [
  'StatementLineImported',
  'StatementLineAssessed',
  'StatementLineClaimed',
  'StatementMatchClaimed',
];

export interface AuditPage {
  items: AuditEntry[];
  nextCursor: string | null;
}

/** Newest first, keyset-paginated on the global position (xid, seq). */
export class AuditLogQuery extends Query<AuditPage> {
  constructor(readonly filters: AuditFilters) {
    super();
  }
}
