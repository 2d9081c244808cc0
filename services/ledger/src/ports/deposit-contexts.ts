/**
 * What a new deposit is decided from (its merchant's rules and a receiving account), as the read
 * side offers it to the command side: from its in-memory mirror of the read models when that mirror
 * is exact (this process runs the projection and has applied every batch), else from SQL after the
 * tables caught up with every deposit answered ahead of the projection. Part of the deposit's hot
 * path (AnsweredDeposits, answered-deposits.ts). The read side (LedgerProjectionRunner) implements it.
 */
export interface DepositContexts {
  /** The mirror when it answers exactly what the read models hold now; undefined otherwise (decide from SQL). */
  current(): DepositContextView | undefined;
  /** Before a decision from SQL: waits until the tables hold every deposit answered so far (bounded). */
  settleBeforeSqlDecision(): Promise<void>;
}

/** What a deposit is decided from, as the read models hold it at the mirror's position. */
export interface DepositContextView {
  merchantRecord(merchantId: string): unknown;
  /** The receiving account SQL would pick (same filters and order; ties broken at random as there). */
  pickAccount(amountKurus: bigint, preferredBankCode: string | undefined, today: string): unknown;
}

export const DEPOSIT_CONTEXTS = Symbol('DepositContexts');
