import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { RecordWebhookAmountMismatchCommand, type TransactionView } from '@transfergate/contracts';
import { decideRecordWebhookAmountMismatch } from '../decisions/record-webhook-amount-mismatch.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { runTransition } from './transition.js';

@CommandHandler(RecordWebhookAmountMismatchCommand)
export class RecordWebhookAmountMismatchHandler implements ICommandHandler<
  RecordWebhookAmountMismatchCommand,
  TransactionView
> {
  constructor(private readonly repository: LedgerRepository) {}

  execute({ input }: RecordWebhookAmountMismatchCommand): Promise<TransactionView> {
    return runTransition(
      this.repository,
      input.transactionId,
      input.actor,
      async () => ({
        recordedAlready: await this.repository.hasWebhookAmountMismatch(input.transactionId, input.paidAmountKurus),
      }),
      (current, context) => decideRecordWebhookAmountMismatch(input, current, context),
    );
  }
}
