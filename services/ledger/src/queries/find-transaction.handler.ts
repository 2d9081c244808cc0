import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { FindTransactionQuery, type TransactionView, transactionIdFor } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { EngineFeedsRunner } from '../engines/engine-feeds.runner.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A provider's transaction by what the caller says the identifier is, never by a guess: its
 * external id (straight to its stream), or when asked for, its internal integer id (through the
 * read model, which every write waits for) or its uuid; the current state always comes from the
 * stream. Another provider's transaction is never found. With MONGODB_URL the number is looked up in
 * MongoDB's read model first; one its feed has not applied yet (it trails the write by its poll) is
 * found in the SQL row written with the request event, so a number just answered is always found.
 */
@QueryHandler(FindTransactionQuery)
export class FindTransactionHandler implements IQueryHandler<FindTransactionQuery, TransactionView | null> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    private readonly engines: EngineFeedsRunner,
  ) {}

  async execute({ providerId, identifier, by }: FindTransactionQuery): Promise<TransactionView | null> {
    let transactionId: string | undefined;
    if ((by ?? 'transactionId') === 'transactionId') transactionId = transactionIdFor(providerId, identifier);
    else if (by === 'uuid') transactionId = UUID.test(identifier) ? identifier.toLowerCase() : undefined;
    else if (/^\d{1,15}$/.test(identifier)) transactionId = await this.idOfNumber(identifier, providerId);
    if (!transactionId) return null;
    const found = await this.repository.loadTransaction(transactionId);
    return found && found.view.providerId === providerId ? found.view : null;
  }

  private async idOfNumber(number: string, providerId: string): Promise<string | undefined> {
    const fromMongo = await this.engines.transactionReadModel?.findIdByNumber(number, providerId);
    if (fromMongo) return fromMongo;
    const { rows } = await this.db.query<{ id: string }>(
      `select transaction_id::text id from rm_transactions where number = $1::bigint and provider_id = $2`,
      [number, providerId],
    );
    return rows[0]?.id;
  }
}
