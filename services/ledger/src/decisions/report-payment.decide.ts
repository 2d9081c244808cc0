import { PAYMENT_REPORT_BANK_MAX_CHARS, domainEvent, type ReportPaymentCommand } from '@transfergate/contracts';
import { moveRefusal, type TransactionAggregate } from '../domain/transaction.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { transactionWrite, type Decided } from './decision.js';

/**
 * The customer says a deposit awaiting payment is paid: it waits for an operator (or the bank file).
 * The bank they sent from and the time, when they gave them, go with it for the operator to compare.
 */
export function decideReportPayment(
  command: ReportPaymentCommand['input'],
  state: TransactionAggregate,
): Decided<PendingWrite[]> {
  const refusal = moveRefusal(state.view, 'report');
  if (refusal) return refusal;
  const { transactionId } = state.view;
  const senderBank = command.senderBank?.trim().slice(0, PAYMENT_REPORT_BANK_MAX_CHARS);
  return [
    transactionWrite(transactionId, state.version, [
      domainEvent('PaymentReported', {
        transactionId,
        ...(senderBank ? { senderBank } : {}),
        ...(command.transferredAt ? { transferredAt: command.transferredAt } : {}),
      }),
    ]),
  ];
}
