/** Settings the ledger decides with; the runtime validates and provides them. */
export interface LedgerSettings {
  /** A deposit not approved within this time expires (DESIGN.md: default 30 min). */
  depositTtlMs: number;
  /** AES-256 key sealing provider secrets at rest. */
  secretKey: Buffer;
}

export const LEDGER_SETTINGS = 'transfergate:LedgerSettings';

/** Optimistic-concurrency retries on a hot merchant ledger stream: bounded and explicit. */
export const MAX_CONFLICT_RETRIES = 16;
