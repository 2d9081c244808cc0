import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { RejectTransactionCommand, type TransactionView } from '@transfergate/contracts';
import { isRefusal } from '../decisions/decision.js';
import { decideReject, rejectReasonOf } from '../decisions/reject-transaction.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { nothingMore, runTransition } from './transition.js';

@CommandHandler(RejectTransactionCommand)
export class RejectTransactionHandler implements ICommandHandler<RejectTransactionCommand, TransactionView> {
  constructor(private readonly repository: LedgerRepository) {}

  async execute({ input }: RejectTransactionCommand): Promise<TransactionView> {
    // A missing reason is refused before anything is read.
    const reason = rejectReasonOf(input);
    if (isRefusal(reason)) throw reason;
    return runTransition(this.repository, input.transactionId, input.actor, nothingMore, (current) =>
      decideReject(input, current),
    );
  }
}
