import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { ChangeAmountCommand, type TransactionView } from '@transfergate/contracts';
import {
  changeAmountInputRefusal,
  decideChangeAmount,
  type ChangeAmountContext,
} from '../decisions/change-amount.decide.js';
import type { TransactionAggregate } from '../domain/transaction.js';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { MerchantRules } from './merchant-rules.js';
import { runTransition } from './transition.js';

@CommandHandler(ChangeAmountCommand)
export class ChangeAmountHandler implements ICommandHandler<ChangeAmountCommand, TransactionView> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly rules: MerchantRules,
    @Inject(LEDGER_SETTINGS) private readonly settings: LedgerSettings,
  ) {}

  async execute({ input }: ChangeAmountCommand): Promise<TransactionView> {
    const invalid = changeAmountInputRefusal(input);
    if (invalid) throw invalid;
    // A withdrawal's new amount moves its reservation, which checks the balance at the merchant
    // ledger's version: it waits in the merchant's reservation queue with the withdrawal requests
    // (MerchantReservationQueue) rather than racing them for that version and retrying. An
    // operator's move, so the extra read of the transaction that finds its merchant is cheap.
    const target = await this.repository.loadTransaction(input.transactionId);
    if (target?.view.type === 'withdrawal') {
      return this.repository.reservations.run(target.view.merchantId, () => this.change(input));
    }
    return this.change(input);
  }

  private change(input: ChangeAmountCommand['input']): Promise<TransactionView> {
    return runTransition(
      this.repository,
      input.transactionId,
      input.actor,
      (current) => amountChangeContext(this.repository, this.rules, this.settings, current),
      (current, context) => decideChangeAmount(input, current, context),
    );
  }
}

/**
 * The merchant's amount range; a withdrawal's new reservation also needs its fee, limit and balance;
 * the four-eyes limits and a fresh id for a change that waits for a second operator.
 */
export async function amountChangeContext(
  repository: LedgerRepository,
  rules: MerchantRules,
  settings: LedgerSettings,
  current: TransactionAggregate,
): Promise<ChangeAmountContext> {
  const { type, merchantId, transactionId } = current.view;
  const merchant = await rules.of(merchantId);
  const review = { ...(settings.fourEyes ? { fourEyes: settings.fourEyes } : {}), requestId: randomUUID() };
  if (type === 'deposit') return { merchant, ledger: undefined, ...review };
  return { merchant, ledger: await repository.loadMerchantLedger(merchantId, transactionId), ...review };
}
