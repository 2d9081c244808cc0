import { Inject, Injectable } from '@nestjs/common';
import { DomainError, EVENT_CATALOG, type EventData } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';

export type ReceivingAccount = EventData<'BankAccountConfigured'>;

/**
 * Chooses the account a deposit is paid into: active, per-transaction limits fit, today's issued
 * volume plus this amount within the daily limit; the customer's bank first (same-bank transfers
 * are instant), then the least-used account to spread load. Days are Turkish business days
 * (UTC+3, no DST since 2016). The daily volume is read from the projection, so under a burst it
 * can overshoot by what the projection has not applied yet (milliseconds); README: "Decisions".
 */
@Injectable()
export class ReceivingAccountSelector {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async choose(amountKurus: bigint, preferredBankCode?: string): Promise<ReceivingAccount> {
    const { rows } = await this.db.query<{ record: unknown }>(
      `select b.record from rm_bank_accounts b
       left join rm_bank_account_daily d
         on d.bank_account_id = b.bank_account_id and d.day = ((now() at time zone 'UTC') + interval '3 hours')::date
       where b.active
         and (b.record->>'minAmountKurus')::bigint <= $1::bigint
         and (b.record->>'maxAmountKurus')::bigint >= $1::bigint
         and coalesce(d.issued_kurus, 0) + $1::bigint <= (b.record->>'dailyLimitKurus')::bigint
       order by (b.record->>'bankCode' = $2) desc nulls last, coalesce(d.issued_kurus, 0) asc, random()
       limit 1`,
      [amountKurus.toString(), preferredBankCode ?? null],
    );
    const row = rows[0];
    if (!row) {
      throw new DomainError('no_receiving_account', 'no receiving bank account can take this amount right now');
    }
    return EVENT_CATALOG.BankAccountConfigured.schema.parse(row.record);
  }
}
