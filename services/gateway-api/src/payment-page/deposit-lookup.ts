import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  FindTransactionByPaymentTokenQuery,
  ReportPaymentCommand,
  isDomainError,
  type PaymentPageTransaction,
} from '@transfergate/contracts';
import { mayReport } from './deposit-status.js';
import type { PaymentReportFields } from './payment-report.js';
import type { RequestOrigin } from '@transfergate/runtime/http';

/** A deposit with its receiving account: the only kind of transaction a payment token opens. */
export type PayableDeposit = PaymentPageTransaction & {
  bankAccount: NonNullable<PaymentPageTransaction['bankAccount']>;
};

export async function findDeposit(queries: QueryBus, token: string): Promise<PayableDeposit | null> {
  const view = await queries.execute(new FindTransactionByPaymentTokenQuery(token));
  return view && view.type === 'deposit' && view.bankAccount ? (view as PayableDeposit) : null;
}

/**
 * The customer says the money is sent (optionally from which bank and when). Pressing twice, pressing after approval or expiry, or losing
 * a race with an operator is not the customer's error: the page just shows the current state, so a
 * refusal from the ledger is swallowed here. Anything else (the database is down) still fails.
 */
export async function reportPayment(
  commands: CommandBus,
  deposit: PayableDeposit,
  origin: RequestOrigin,
  now: Date,
  reported: PaymentReportFields = {},
): Promise<void> {
  if (!mayReport(deposit, now)) return;
  try {
    await commands.execute(
      new ReportPaymentCommand({
        transactionId: deposit.transactionId,
        actor: { source: 'customer', ip: origin.ip, requestId: origin.requestId },
        ...reported,
      }),
    );
  } catch (error) {
    if (!isRefusal(error)) throw error;
  }
}

/** A DomainError, or its serialised form ({ errorCode, message }) once commands travel over a transport. */
function isRefusal(error: unknown): boolean {
  return (
    isDomainError(error) ||
    (typeof error === 'object' && error !== null && typeof (error as { errorCode?: unknown }).errorCode === 'string')
  );
}
