import { EVENT_CATALOG } from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';

/** SQL types of the record tables' columns, for the projector's multi-row upserts. */
export const RECORD_COLUMN_TYPES: Record<string, Record<string, string>> = {
  rm_statement_imports: { import_id: 'uuid', bank_account_id: 'text', record: 'jsonb', updated_at: 'timestamptz' },
  rm_statement_lines: {
    line_id: 'uuid',
    bank_account_id: 'text',
    direction: 'text',
    amount_kurus: 'bigint',
    booked_on: 'date',
    record: 'jsonb',
    updated_at: 'timestamptz',
  },
  rm_statement_line_status: {
    line_id: 'uuid',
    bank_account_id: 'text',
    state: 'text',
    transaction_id: 'uuid',
    record: 'jsonb',
    updated_at: 'timestamptz',
  },
  rm_amount_change_requests: {
    request_id: 'uuid',
    transaction_id: 'uuid',
    state: 'text',
    record: 'jsonb',
    updated_at: 'timestamptz',
  },
  rm_reconciliation_settings: {
    infrastructure_id: 'text',
    auto_approve: 'boolean',
    record: 'jsonb',
    updated_at: 'timestamptz',
  },
};

/** A row as the columns of its table, in the table's column order: key, indexed columns, record, updated_at. */
export function rowColumns(row: RecordRow, createdAt: string): Record<string, unknown> {
  return { [row.keyColumn]: row.key, ...row.columns, record: row.record, updated_at: createdAt };
}

/**
 * The reconciliation events as record upserts for the projector (`read-models/projector.ts`):
 * table, key column, key, indexed columns and the record kept as jsonb. Each event fully determines
 * its row, so the live projector and the replay's memory projection agree by construction.
 */
export interface RecordRow {
  table: string;
  keyColumn: string;
  key: string;
  columns: Record<string, unknown>;
  record: unknown;
}

export function reconciliationRow(event: RecordedEvent): RecordRow | undefined {
  // Read only by the decisions that need it (the replay parses an event's metadata on first use).
  const by = () => (typeof event.metadata.actor === 'string' ? event.metadata.actor : undefined);
  switch (event.type) {
    case 'StatementImported': {
      const d = EVENT_CATALOG.StatementImported.schema.parse(event.data);
      return {
        table: 'rm_statement_imports',
        keyColumn: 'import_id',
        key: d.importId,
        columns: { bank_account_id: d.bankAccountId },
        record: { ...d, importedAt: event.createdAt },
      };
    }
    case 'StatementLineImported': {
      const d = EVENT_CATALOG.StatementLineImported.schema.parse(event.data);
      return {
        table: 'rm_statement_lines',
        keyColumn: 'line_id',
        key: d.lineId,
        columns: {
          bank_account_id: d.bankAccountId,
          direction: d.direction,
          amount_kurus: d.amountKurus,
          booked_on: d.bookedOn,
        },
        record: d,
      };
    }
    case 'StatementLineAssessed': {
      const d = EVENT_CATALOG.StatementLineAssessed.schema.parse(event.data);
      // A debit line is not for deposits: it is kept, and left out of the queue as dismissed by nobody.
      return status(
        d.lineId,
        d.bankAccountId,
        'queued',
        null,
        {
          candidates: d.candidates,
          differences: d.differences,
        },
        event,
      );
    }
    case 'StatementLineMatched': {
      const d = EVENT_CATALOG.StatementLineMatched.schema.parse(event.data);
      return status(
        d.lineId,
        d.bankAccountId,
        'matched',
        d.transactionId,
        {
          number: d.number,
          mode: d.mode,
          decision: d.decision,
          differences: d.differences,
          lineAmountKurus: d.lineAmountKurus,
          requestedAmountKurus: d.requestedAmountKurus,
          score: d.score,
          reasons: d.reasons,
          decidedBy: d.by.operatorId ?? by() ?? d.by.source,
          decidedAt: event.createdAt,
        },
        event,
      );
    }
    case 'StatementLineDismissed': {
      const d = EVENT_CATALOG.StatementLineDismissed.schema.parse(event.data);
      return status(
        d.lineId,
        d.bankAccountId,
        'dismissed',
        null,
        {
          reason: d.reason,
          differences: d.differences,
          decidedBy: d.by.operatorId ?? by() ?? d.by.source,
          decidedAt: event.createdAt,
        },
        event,
      );
    }
    case 'ReconciliationSettingsConfigured': {
      const d = EVENT_CATALOG.ReconciliationSettingsConfigured.schema.parse(event.data);
      return {
        table: 'rm_reconciliation_settings',
        keyColumn: 'infrastructure_id',
        key: d.infrastructureId,
        columns: { auto_approve: d.autoApprove },
        record: d,
      };
    }
    default:
      return undefined;
  }
}

function status(
  lineId: string,
  bankAccountId: string,
  state: 'queued' | 'matched' | 'dismissed',
  transactionId: string | null,
  record: Record<string, unknown>,
  event: RecordedEvent,
): RecordRow {
  return {
    table: 'rm_statement_line_status',
    keyColumn: 'line_id',
    key: lineId,
    columns: { bank_account_id: bankAccountId, state, transaction_id: transactionId },
    record: { state, ...record, at: event.createdAt },
  };
}
