import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AssignTransactionCommand, type TransactionView } from '@transfergate/contracts';
import { decideAssign } from '../decisions/assign-transaction.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { nothingMore, runTransition } from './transition.js';

@CommandHandler(AssignTransactionCommand)
export class AssignTransactionHandler implements ICommandHandler<AssignTransactionCommand, TransactionView> {
  constructor(private readonly repository: LedgerRepository) {}

  execute({ input }: AssignTransactionCommand): Promise<TransactionView> {
    return runTransition(this.repository, input.transactionId, input.actor, nothingMore, (current) =>
      decideAssign(input, current),
    );
  }
}
