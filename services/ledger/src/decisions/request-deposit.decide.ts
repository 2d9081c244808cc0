import {
  DomainError,
  domainEvent,
  type DomainEvent,
  type EventData,
  type RequestDepositCommand,
} from '@transfergate/contracts';
import type { Decided } from './decision.js';
import { merchantRefusal } from './merchant-limits.js';
import { originOf } from './request-origin.js';

/** What a new deposit is decided from, loaded by its handler in one read (the deposit hot path). */
export interface DepositRequestContext {
  transactionId: string;
  /** The merchant's rules (active, amount range). */
  merchant: EventData<'MerchantConfigured'> | undefined;
  /**
   * The receiving account chosen for this amount (per-transaction limits and the day's volume fit),
   * undefined when none can take it.
   */
  account: EventData<'BankAccountConfigured'> | undefined;
  /** The contract's integer id for the deposit (a sequence value: gaps are allowed). */
  number: number;
  /** The clock's now, in ms since the epoch. */
  nowMs: number;
  /** How long the customer has to pay. */
  depositTtlMs: number;
  /** A fresh payment token (the payment page URL's bearer capability). */
  paymentToken: string;
}

/**
 * A new deposit: the merchant must be active and the amount within its range, and an account must
 * take it; the customer is told that account and has `depositTtlMs` to pay. The duplicate check is
 * the append's (a new stream, no_stream), not this decision's.
 */
export function decideRequestDeposit(
  command: RequestDepositCommand['input'],
  context: DepositRequestContext,
): Decided<DomainEvent<'DepositRequested'>> {
  const refusal = merchantRefusal(context.merchant, command.amountKurus);
  if (refusal) return refusal;
  const account = context.account;
  if (!account)
    return new DomainError('no_receiving_account', 'no receiving bank account can take this amount right now');
  // Object.assign, not a leading spread: on Node 20's V8 an object spread followed by new keys
  // costs about 4 µs here, Object.assign under 1 (same keys, same order).
  return domainEvent(
    'DepositRequested',
    Object.assign(originOf(command, context.transactionId, context.number), {
      receivingAccount: {
        bankAccountId: account.bankAccountId,
        bank: account.bank,
        bankCode: account.bankCode,
        holderName: account.holderName,
        iban: account.iban,
        fast: account.fast,
      },
      paymentToken: context.paymentToken,
      expiresAt: new Date(context.nowMs + context.depositTtlMs).toISOString(),
    }),
  );
}
