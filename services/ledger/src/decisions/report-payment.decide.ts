import { domainEvent, type ReportPaymentCommand } from '@transfergate/contracts';
import { moveRefusal, type TransactionAggregate } from '../domain/transaction.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { transactionWrite, type Decided } from './decision.js';

/** The customer says a deposit awaiting payment is paid: it waits for an operator (or the bank file). */
export function decideReportPayment(
  _command: ReportPaymentCommand['input'],
  state: TransactionAggregate,
): Decided<PendingWrite[]> {
  const refusal = moveRefusal(state.view, 'report');
  if (refusal) return refusal;
  const { transactionId } = state.view;
  return [transactionWrite(transactionId, state.version, [domainEvent('PaymentReported', { transactionId })])];
}
