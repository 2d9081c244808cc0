import { FINAL_STATES, type TransactionState } from '@transfergate/contracts';

/**
 * What a transaction's state means beyond its own stream: whether it can still change, and whether
 * a deposit in it still counts toward its receiving account's daily volume. One definition each,
 * read by the decisions, the live projection, the replay and the deposit-context cache alike.
 */

/** Approved or rejected: nothing changes it any more (an expired deposit can still be approved). */
export function isFinal(state: TransactionState): boolean {
  return FINAL_STATES.includes(state);
}

/**
 * The states in which a deposit no longer counts toward its receiving account's daily volume: the
 * money is not coming (rejected) or was not sent in time (expired). Every other state counts, from
 * the request on: the account's daily limit bounds what customers were told to pay into it.
 */
export const DAILY_VOLUME_RELEASED_STATES: readonly TransactionState[] = ['rejected', 'expired'];

/** Whether a deposit in this state counts toward its receiving account's daily volume. */
export function countsTowardDailyVolume(state: TransactionState): boolean {
  return !DAILY_VOLUME_RELEASED_STATES.includes(state);
}

/**
 * The part of a deposit's amount its receiving account's day counts (kuruş): the current amount
 * while it counts, nothing once released. A change of state or amount moves the day by the
 * difference of this before and after.
 */
export function dailyVolumeShareKurus(view: { state: TransactionState; amountKurus: string }): bigint {
  return countsTowardDailyVolume(view.state) ? BigInt(view.amountKurus) : 0n;
}
