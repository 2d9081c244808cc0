import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ExpireTransactionCommand, type TransactionView } from '@transfergate/contracts';
import { decideExpire } from '../decisions/expire-transaction.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { nothingMore, runTransition } from './transition.js';

@CommandHandler(ExpireTransactionCommand)
export class ExpireTransactionHandler implements ICommandHandler<ExpireTransactionCommand, TransactionView> {
  constructor(private readonly repository: LedgerRepository) {}

  execute({ input }: ExpireTransactionCommand): Promise<TransactionView> {
    return runTransition(this.repository, input.transactionId, { source: 'system' }, nothingMore, (current) =>
      decideExpire(input, current),
    );
  }
}
