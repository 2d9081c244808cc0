import type { CustomerRef } from '@transfergate/contracts';
import { normaliseName } from './normalise.js';

/** Customers whose recent requests are kept; past it the least recently seen are forgotten. */
export const MAX_TRACKED_CUSTOMERS = 200_000;
/** Requests kept per customer (per kind); the oldest go first. */
export const MAX_REQUESTS_PER_CUSTOMER = 500;
/** How far back requests are kept: the longest velocity window is a day. */
export const VELOCITY_WINDOW_MS = 24 * 60 * 60_000;

/** A customer's accepted requests inside the window, oldest first. */
export interface CustomerActivity {
  deposits: Array<{ atMs: number; amountKurus: bigint }>;
  /** The sum of `deposits`' amounts (kept with them, so a day's amount is not summed per request). */
  depositsKurus: bigint;
  withdrawalsAtMs: number[];
  /** Whether a deposit of this customer was ever seen (the first-deposit cap). */
  deposited: boolean;
}

/** The customer a velocity limit counts for: the merchant's user id, else the normalised full name. */
export function customerKey(merchantId: string, customer: Pick<CustomerRef, 'userId' | 'fullName'>): string {
  return customer.userId ? `${merchantId}|u|${customer.userId}` : `${merchantId}|n|${normaliseName(customer.fullName)}`;
}

/**
 * Accepted deposits and withdrawals per customer, in memory: what velocity limits count. This
 * process notes each request it accepts; at start it is filled from the read model's recent
 * transactions (RiskIndex). Bounded by MAX_TRACKED_CUSTOMERS and MAX_REQUESTS_PER_CUSTOMER.
 */
export class VelocityTracker {
  private readonly customers = new Map<string, CustomerActivity>();

  constructor(private readonly maxCustomers = MAX_TRACKED_CUSTOMERS) {}

  get size(): number {
    return this.customers.size;
  }

  activity(key: string): CustomerActivity | undefined {
    return this.customers.get(key);
  }

  /** A deposit older than the window: the customer is no longer new (the first-deposit cap). */
  markDeposited(key: string): void {
    const activity = this.customers.get(key);
    if (activity) activity.deposited = true;
    else this.customers.set(key, { deposits: [], depositsKurus: 0n, withdrawalsAtMs: [], deposited: true });
    this.evictPastBound();
  }

  note(key: string, kind: 'deposit' | 'withdrawal', atMs: number, amountKurus: bigint): void {
    let activity = this.customers.get(key);
    if (activity) this.customers.delete(key);
    else activity = { deposits: [], depositsKurus: 0n, withdrawalsAtMs: [], deposited: false };
    // Re-inserted: the map's order is the order customers were last seen in.
    this.customers.set(key, activity);
    const since = atMs - VELOCITY_WINDOW_MS;
    if (kind === 'deposit') {
      activity.deposited = true;
      insertByTime(activity.deposits, { atMs, amountKurus }, (d) => d.atMs);
      activity.depositsKurus += amountKurus;
      while (
        activity.deposits.length > MAX_REQUESTS_PER_CUSTOMER ||
        (activity.deposits.length > 0 && activity.deposits[0]!.atMs < since)
      ) {
        activity.depositsKurus -= activity.deposits.shift()!.amountKurus;
      }
    } else {
      insertByTime(activity.withdrawalsAtMs, atMs, (w) => w);
      while (activity.withdrawalsAtMs.length > 0 && activity.withdrawalsAtMs[0]! < since)
        activity.withdrawalsAtMs.shift();
      if (activity.withdrawalsAtMs.length > MAX_REQUESTS_PER_CUSTOMER) activity.withdrawalsAtMs.shift();
    }
    this.evictPastBound();
  }

  /** Past MAX_TRACKED_CUSTOMERS, the customer seen longest ago is forgotten. */
  private evictPastBound(): void {
    if (this.customers.size <= this.maxCustomers) return;
    const oldest = this.customers.keys().next().value;
    if (oldest !== undefined) this.customers.delete(oldest);
  }
}

/** Inserts keeping the array ordered by time (appends in the usual case: requests arrive in order). */
function insertByTime<T>(list: T[], item: T, timeOf: (item: T) => number): void {
  let at = list.length;
  while (at > 0 && timeOf(list[at - 1]!) > timeOf(item)) at--;
  list.splice(at, 0, item);
}
