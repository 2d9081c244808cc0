import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { FindTransactionQuery, type TransactionView, transactionIdFor } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { LedgerRepository } from '../persistence/ledger-repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A provider's transaction by what the caller says the identifier is, never by a guess: its
 * external id (straight to its stream), or when asked for, its internal integer id (through the
 * read model, which every write waits for) or its uuid; the current state always comes from the
 * stream. Another provider's transaction is never found.
 */
@QueryHandler(FindTransactionQuery)
export class FindTransactionHandler implements IQueryHandler<FindTransactionQuery, TransactionView | null> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async execute({ providerId, identifier, by }: FindTransactionQuery): Promise<TransactionView | null> {
    let transactionId: string | undefined;
    if ((by ?? 'transactionId') === 'transactionId') transactionId = transactionIdFor(providerId, identifier);
    else if (by === 'uuid') transactionId = UUID.test(identifier) ? identifier.toLowerCase() : undefined;
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
