import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ReportPaymentCommand, type TransactionView } from '@transfergate/contracts';
import { decideReportPayment } from '../decisions/report-payment.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { nothingMore, runTransition } from './transition.js';

@CommandHandler(ReportPaymentCommand)
export class ReportPaymentHandler implements ICommandHandler<ReportPaymentCommand, TransactionView> {
  constructor(private readonly repository: LedgerRepository) {}

  execute({ input }: ReportPaymentCommand): Promise<TransactionView> {
    return runTransition(this.repository, input.transactionId, input.actor, nothingMore, (current) =>
      decideReportPayment(input, current),
    );
  }
}
