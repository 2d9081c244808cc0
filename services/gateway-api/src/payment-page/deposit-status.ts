import type { DEPOSIT_STATES, TransactionView } from '@transfergate/contracts';

/**
 * The state a customer should see. The ledger's expiry sweeper runs in batches, so a deposit can be
 * past its expiresAt for a moment while its stream still says awaiting_payment: the page never offers
 * to pay into a deposit that is due to expire. Approved/rejected are final and win over the clock.
 */
export type DepositState = (typeof DEPOSIT_STATES)[number];

/** Which part of the page is shown; the inline script uses the same names (data-show). */
export type PageView = 'pay' | 'waiting' | 'approved' | 'rejected' | 'expired';

export const PAGE_VIEW: Record<DepositState, PageView> = {
  awaiting_payment: 'pay',
  payment_reported: 'waiting',
  // Held by a risk rule: no payment details until an operator releases it.
  held: 'waiting',
  approved: 'approved',
  rejected: 'rejected',
  expired: 'expired',
};

export function effectiveState(view: TransactionView, now: Date): DepositState {
  const state = view.state as DepositState;
  if (state === 'approved' || state === 'rejected' || state === 'expired') return state;
  if (view.expiresAt && Date.parse(view.expiresAt) <= now.getTime()) return 'expired';
  return state;
}

/** Seconds until expiresAt, never negative (the countdown and the status answer). */
export function secondsLeft(view: TransactionView, now: Date): number {
  if (!view.expiresAt) return 0;
  return Math.max(0, Math.floor((Date.parse(view.expiresAt) - now.getTime()) / 1000));
}

/** Reporting only makes sense while the deposit still waits for the money. */
export function mayReport(view: TransactionView, now: Date): boolean {
  return effectiveState(view, now) === 'awaiting_payment';
}
