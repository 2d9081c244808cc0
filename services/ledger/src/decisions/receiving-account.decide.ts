/**
 * Which receiving account a new deposit is told to pay into: the rules the deposit-context cache's
 * `pickAccount` applies in memory, as the read models' SQL applies them (ReceivingAccountSelector).
 * An account takes a deposit when it is active, the amount is within its per-transaction range, and
 * the day's issued volume plus this amount stays within its daily limit (Turkish business days).
 * Among those, the customer's own bank first (same-bank transfers are instant), then the least used
 * today; ties are broken at random by the caller.
 */

/** The fields of a configured account these rules read (as the read model stores them). */
export interface AccountLimits {
  minAmountKurus: unknown;
  maxAmountKurus: unknown;
  dailyLimitKurus: unknown;
  bankCode?: unknown;
}

/** Whether `amountKurus` is within the account's per-transaction range (inclusive). */
export function accountTakesAmount(account: AccountLimits, amountKurus: bigint): boolean {
  return BigInt(String(account.minAmountKurus)) <= amountKurus && BigInt(String(account.maxAmountKurus)) >= amountKurus;
}

/** Whether `amountKurus` fits the account's daily limit with `issuedTodayKurus` already issued today. */
export function withinDailyLimit(account: AccountLimits, issuedTodayKurus: bigint, amountKurus: bigint): boolean {
  return issuedTodayKurus + amountKurus <= BigInt(String(account.dailyLimitKurus));
}

/**
 * Whether an active account takes a deposit of `amountKurus` with `issuedTodayKurus` already issued
 * today (the range is checked first: the day's volume is looked up only for an account in range).
 */
export function accountTakes(account: AccountLimits, issuedTodayKurus: bigint, amountKurus: bigint): boolean {
  return accountTakesAmount(account, amountKurus) && withinDailyLimit(account, issuedTodayKurus, amountKurus);
}

/**
 * The account's rank for a customer's bank (higher first): 2 for the same bank, 1 for another, 0
 * when no bank is preferred (SQL: `order by (bankCode = preferred) desc nulls last`).
 */
export function bankRank(account: AccountLimits, preferredBankCode: string | undefined): number {
  if (preferredBankCode === undefined || typeof account.bankCode !== 'string') return 0;
  return account.bankCode === preferredBankCode ? 2 : 1;
}
