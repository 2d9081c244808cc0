import { Inject, Injectable } from '@nestjs/common';
import { EVENT_CATALOG, type EventData } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { turkishDay } from '../domain/turkish-day.js';
import { DEPOSIT_CONTEXTS, type DepositContexts } from '../ports/deposit-contexts.js';
import { ParsedRecords } from './parsed-records.js';
import { TransactionNumbers } from './transaction-numbers.js';

export type ReceivingAccount = EventData<'BankAccountConfigured'>;
export type MerchantRecord = EventData<'MerchantConfigured'>;

export interface DepositContext {
  merchant: MerchantRecord | undefined;
  account: ReceivingAccount | undefined;
  /** The contract's integer id for the new deposit (a sequence value: gaps are allowed). */
  number: number;
  /** The Turkish business day the account's daily volume was read for. */
  day: string;
}

/**
 * Everything a new deposit needs from the read models, in one round trip (the deposit hot path):
 * the merchant's rules, the receiving account and the next transaction number.
 *
 * The account: active, per-transaction limits fit, today's issued volume plus this amount within the
 * daily limit; the customer's bank first (same-bank transfers are instant), then the least-used
 * account to spread load. Days are Turkish business days (UTC+3, no DST since 2016). Every deposit
 * answered before the decision counts (answered ahead of the projection included: the cache's
 * overlay, or the wait before a decision from SQL); deposits decided at the same moment do not see
 * each other, so a burst can overshoot a daily limit by those;
 * docs/decisions/0007-receiving-account-daily-limit.md.
 */
@Injectable()
export class ReceivingAccountSelector {
  private readonly numbers: TransactionNumbers;
  private readonly parsedRecords = new ParsedRecords();

  constructor(
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    /** The read side's decision context (ports/deposit-contexts.ts): its exact mirror, or SQL once settled. */
    @Inject(DEPOSIT_CONTEXTS) private readonly contexts: DepositContexts,
  ) {
    this.numbers = new TransactionNumbers(db);
  }

  /**
   * From memory when the read side's mirror answers exactly what the read models hold
   * (DepositContexts.current: this process runs the projection), else the read models in SQL.
   */
  async depositContext(merchantId: string, amountKurus: bigint, preferredBankCode?: string): Promise<DepositContext> {
    const view = this.contexts.current();
    const day = turkishDay(Date.now());
    if (view) {
      const merchant = view.merchantRecord(merchantId);
      const account = view.pickAccount(amountKurus, preferredBankCode, day);
      return {
        merchant: merchant ? this.parsedRecords.of(merchant, EVENT_CATALOG.MerchantConfigured.schema) : undefined,
        account: account ? this.parsedRecords.of(account, EVENT_CATALOG.BankAccountConfigured.schema) : undefined,
        number: await this.numbers.next(),
        day,
      };
    }
    await this.contexts.settleBeforeSqlDecision();
    return { ...(await this.fromSql(merchantId, amountKurus, preferredBankCode)), day };
  }

  private async fromSql(
    merchantId: string,
    amountKurus: bigint,
    preferredBankCode?: string,
  ): Promise<Omit<DepositContext, 'day'>> {
    const { rows } = await this.db.query<{ merchant: unknown; account: unknown; number: string }>(
      `select
         (select record from rm_merchants where merchant_id = $3) as merchant,
         (select b.record from rm_bank_accounts b
          left join rm_bank_account_daily d
            on d.bank_account_id = b.bank_account_id and d.day = ((now() at time zone 'UTC') + interval '3 hours')::date
          where b.active
            and (b.record->>'minAmountKurus')::bigint <= $1::bigint
            and (b.record->>'maxAmountKurus')::bigint >= $1::bigint
            and coalesce(d.issued_kurus, 0) + $1::bigint <= (b.record->>'dailyLimitKurus')::bigint
          order by (b.record->>'bankCode' = $2) desc nulls last, coalesce(d.issued_kurus, 0) asc, random()
          limit 1) as account,
         nextval('txn_number_seq')::text as number`,
      [amountKurus.toString(), preferredBankCode ?? null, merchantId],
    );
    const row = rows[0]!;
    return {
      merchant: row.merchant ? EVENT_CATALOG.MerchantConfigured.schema.parse(row.merchant) : undefined,
      account: row.account ? EVENT_CATALOG.BankAccountConfigured.schema.parse(row.account) : undefined,
      number: Number(row.number),
    };
  }
}
