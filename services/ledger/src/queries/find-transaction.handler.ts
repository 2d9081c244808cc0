import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { FindTransactionQuery, type TransactionView } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { transactionIdFor } from '../persistence/ids.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A provider's transaction by external id (straight to its stream, no projection lag), else by
 * internal integer id or UUID (through the read model, then the stream for the current state).
 * Another provider's transaction is never found.
 */
@QueryHandler(FindTransactionQuery)
export class FindTransactionHandler implements IQueryHandler<FindTransactionQuery, TransactionView | null> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async execute({ providerId, identifier }: FindTransactionQuery): Promise<TransactionView | null> {
    const byExternal = await this.repository.loadTransaction(transactionIdFor(providerId, identifier));
    if (byExternal) return byExternal.view;
    let transactionId: string | undefined;
    if (UUID.test(identifier)) transactionId = identifier.toLowerCase();
    else if (/^\d{1,15}$/.test(identifier)) {
      const { rows } = await this.db.query<{ id: string }>(
        `select transaction_id::text id from rm_transactions where number = $1::bigint and provider_id = $2`,
        [identifier, providerId],
      );
      transactionId = rows[0]?.id;
    }
    if (!transactionId) return null;
    const found = await this.repository.loadTransaction(transactionId);
    return found && found.view.providerId === providerId ? found.view : null;
  }
}
