import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ReleaseRiskHoldCommand, type TransactionView } from '@transfergate/contracts';
import { decideReleaseRiskHold } from '../decisions/release-risk-hold.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { nothingMore, runTransition } from './transition.js';

@CommandHandler(ReleaseRiskHoldCommand)
export class ReleaseRiskHoldHandler implements ICommandHandler<ReleaseRiskHoldCommand, TransactionView> {
  constructor(private readonly repository: LedgerRepository) {}

  execute({ input }: ReleaseRiskHoldCommand): Promise<TransactionView> {
    return runTransition(this.repository, input.transactionId, input.actor, nothingMore, (current) =>
      decideReleaseRiskHold(input, current),
    );
  }
}
