import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DecideAmountChangeCommand, type TransactionView } from '@transfergate/contracts';
import {
  amountChangeDecisionInputRefusal,
  decideAmountChangeDecision,
} from '../decisions/decide-amount-change.decide.js';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { amountChangeContext } from './change-amount.handler.js';
import { MerchantRules } from './merchant-rules.js';
import { runTransition } from './transition.js';

/**
 * A second operator approves or rejects a waiting amount change: load, decide
 * (decideAmountChangeDecision), append at the version read. A lost race decides again on the stream
 * as it now is, so of two approvals at once the second finds the change decided and is refused.
 */
@CommandHandler(DecideAmountChangeCommand)
export class DecideAmountChangeHandler implements ICommandHandler<DecideAmountChangeCommand, TransactionView> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly rules: MerchantRules,
    @Inject(LEDGER_SETTINGS) private readonly settings: LedgerSettings,
  ) {}

  async execute({ input }: DecideAmountChangeCommand): Promise<TransactionView> {
    const invalid = amountChangeDecisionInputRefusal(input);
    if (invalid) throw invalid;
    // An approved withdrawal change moves its reservation: in the merchant's reservation queue,
    // as ChangeAmountHandler's.
    const target = await this.repository.loadTransaction(input.transactionId);
    if (target?.view.type === 'withdrawal' && input.decision === 'approve') {
      return this.repository.reservations.run(target.view.merchantId, () => this.decide(input));
    }
    return this.decide(input);
  }

  private decide(input: DecideAmountChangeCommand['input']): Promise<TransactionView> {
    return runTransition(
      this.repository,
      input.transactionId,
      input.actor,
      (current) => amountChangeContext(this.repository, this.rules, this.settings, current),
      (current, context) => decideAmountChangeDecision(input, current, context),
    );
  }
}
