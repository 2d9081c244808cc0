import { Inject, Injectable } from '@nestjs/common';
import { EVENT_CATALOG, STREAMS } from '@transfergate/contracts';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { DEPOSIT_CONTEXTS, type DepositContexts } from '../ports/deposit-contexts.js';
import { ParsedRecords } from './parsed-records.js';
import type { MerchantRecord } from './receiving-account.selector.js';

/**
 * A merchant's rules (active, amount range, commissions, overdraft) for a command that is not a
 * deposit (a deposit gets them with its receiving account: ReceivingAccountSelector).
 *
 * From the read side's deposit context where it mirrors the read models exactly
 * (DepositContexts.current: this process runs the projection), with no read; else from the merchant's stream, as before the cache. Both give the
 * same answer to a command that starts after a change was answered: a change answers only once the
 * projection, and with it the cache, has applied it. A change still unanswered is concurrent with
 * the command, and either answer is one the command could have got.
 */
@Injectable()
export class MerchantRules {
  private readonly parsedRecords = new ParsedRecords();

  constructor(
    @Inject(DEPOSIT_CONTEXTS) private readonly contexts: DepositContexts,
    private readonly repository: LedgerRepository,
  ) {}

  async of(merchantId: string): Promise<MerchantRecord | undefined> {
    const view = this.contexts.current();
    if (view) {
      const record = view.merchantRecord(merchantId);
      return record ? this.parsedRecords.of(record, EVENT_CATALOG.MerchantConfigured.schema) : undefined;
    }
    const { state } = await this.repository.loadConfig(STREAMS.merchant(merchantId), 'MerchantConfigured');
    return state;
  }
}
