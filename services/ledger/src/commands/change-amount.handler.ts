import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ChangeAmountCommand, type TransactionView } from '@transfergate/contracts';
import {
  changeAmountInputRefusal,
  decideChangeAmount,
  type ChangeAmountContext,
} from '../decisions/change-amount.decide.js';
import type { TransactionAggregate } from '../domain/transaction.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { MerchantRules } from './merchant-rules.js';
import { runTransition } from './transition.js';

@CommandHandler(ChangeAmountCommand)
export class ChangeAmountHandler implements ICommandHandler<ChangeAmountCommand, TransactionView> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly rules: MerchantRules,
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
      (current) => this.context(current),
      (current, context) => decideChangeAmount(input, current, context),
    );
  }

  /** The merchant's amount range; a withdrawal's new reservation also needs its fee, limit and balance. */
  private async context(current: TransactionAggregate): Promise<ChangeAmountContext> {
    const { type, merchantId, transactionId } = current.view;
    const merchant = await this.rules.of(merchantId);
    if (type === 'deposit') return { merchant, ledger: undefined };
    return { merchant, ledger: await this.repository.loadMerchantLedger(merchantId, transactionId) };
  }
}
