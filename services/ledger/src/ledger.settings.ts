/** Settings the ledger decides with; the runtime validates and provides them. */
export interface LedgerSettings {
  /** A deposit not approved within this time expires (DESIGN.md: default 30 min). */
  depositTtlMs: number;
  /** AES-256 key sealing provider secrets at rest. */
  secretKey: Buffer;
  /**
   * CIDR ranges callback URLs may name although they are not public (CALLBACK_ALLOWED_TARGETS);
   * empty or absent: public addresses only (libs/security egress-policy).
   */
  callbackAllowedTargets?: string[];
}

export const LEDGER_SETTINGS = 'transfergate:LedgerSettings';

/** Optimistic-concurrency retries on a hot merchant ledger stream: bounded and explicit. */
export const MAX_CONFLICT_RETRIES = 16;

/**
 * Read-your-writes: a command answers only once the read models include what it wrote, waiting at
 * most this long for the projection. Past it the write stands (it is committed) and the answer goes
 * out with a warning logged: a stalled projection also turns /ready red.
 */
export const READ_YOUR_WRITES_TIMEOUT_MS = 5_000;
