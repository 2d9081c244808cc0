import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  FindTransactionByPaymentTokenQuery,
  ListBanksQuery,
  type BankSummary,
  type PaymentPageTransaction,
} from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { LedgerRepository } from '../persistence/ledger-repository.js';

const TOKEN = /^[A-Za-z0-9_-]{22,64}$/;

/**
 * Deposit by payment token: read model for the lookup, the stream for the current state, and the
 * merchant's name (the page names who the customer pays).
 */
@QueryHandler(FindTransactionByPaymentTokenQuery)
export class FindTransactionByPaymentTokenHandler implements IQueryHandler<
  FindTransactionByPaymentTokenQuery,
  PaymentPageTransaction | null
> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async execute({ paymentToken }: FindTransactionByPaymentTokenQuery): Promise<PaymentPageTransaction | null> {
    if (!TOKEN.test(paymentToken)) return null;
    const { rows } = await this.db.query<{ id: string; merchant_name: string | null }>(
      `select t.transaction_id::text id, m.name merchant_name
       from rm_transactions t left join rm_merchants m on m.merchant_id = t.merchant_id
       where t.payment_token = $1`,
      [paymentToken],
    );
    if (!rows[0]) return null;
    const view = (await this.repository.loadTransaction(rows[0].id))?.view;
    if (!view) return null;
    return { ...view, ...(rows[0].merchant_name ? { merchantName: rows[0].merchant_name } : {}) };
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
