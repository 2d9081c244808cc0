import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  FindTransactionByPaymentTokenQuery,
  ListBanksQuery,
  type BankSummary,
  type TransactionView,
} from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { LedgerRepository } from '../persistence/ledger-repository.js';

const TOKEN = /^[A-Za-z0-9_-]{22,64}$/;

/** Deposit by payment token: read model for the lookup, the stream for the current state. */
@QueryHandler(FindTransactionByPaymentTokenQuery)
export class FindTransactionByPaymentTokenHandler implements IQueryHandler<
  FindTransactionByPaymentTokenQuery,
  TransactionView | null
> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async execute({ paymentToken }: FindTransactionByPaymentTokenQuery): Promise<TransactionView | null> {
    if (!TOKEN.test(paymentToken)) return null;
    const { rows } = await this.db.query<{ id: string }>(
      `select transaction_id::text id from rm_transactions where payment_token = $1`,
      [paymentToken],
    );
    if (!rows[0]) return null;
    return (await this.repository.loadTransaction(rows[0].id))?.view ?? null;
  }
}

/** Banks with at least one active receiving account; FAST when any of its accounts is. */
@QueryHandler(ListBanksQuery)
export class ListBanksHandler implements IQueryHandler<ListBanksQuery, BankSummary[]> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async execute(): Promise<BankSummary[]> {
    const { rows } = await this.db.query<{ code: string; name: string; fast: boolean }>(
      `select record->>'bankCode' code, min(record->>'bank') name, bool_or((record->>'fast')::boolean) fast
       from rm_bank_accounts where active group by record->>'bankCode' order by min(record->>'bank')`,
    );
    return rows.map((row) => ({ id: row.code, name: row.name, code: row.code, fast: row.fast }));
  }
}
