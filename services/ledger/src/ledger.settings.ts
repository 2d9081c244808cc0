/** Settings the ledger decides with; the runtime validates and provides them. */
export interface LedgerSettings {
  /** A deposit not approved within this time expires (docs/architecture.md: default 30 min). */
  depositTtlMs: number;
  /**
   * An operator's amount change whose size (against the requested amount) is above `aboveKurus`, or
   * above `abovePercent` % of the requested amount (0: no share limit), waits for a second operator.
   * Absent: no change waits (embedders and tests that do not configure it).
   */
  fourEyes?: FourEyesLimits;
  /** AES-256 key sealing provider secrets at rest. */
  secretKey: Buffer;
  /**
   * CIDR ranges callback URLs may name although they are not public (CALLBACK_ALLOWED_TARGETS);
   * empty or absent: public addresses only (libs/security egress-policy).
   */
  callbackAllowedTargets?: string[];
}

export interface FourEyesLimits {
  aboveKurus: bigint;
  abovePercent: number;
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

/**
 * While no command in this process waits for the projection, it starts a batch at most once per
 * this many ms: under a load of new deposits (answered without waiting for it) each batch then takes
 * what arrived meanwhile, one statement and one commit for tens of events instead of a few. A command
 * that waits ends the pause at once. What nobody waits for lags up to this much more: the tables'
 * daily volume of an account after a new deposit (its row is written with its event, and this
 * process's deposit-context cache counts the volume at once), and a command of a second ledger
 * replica, which polls the stored checkpoint.
 */
export const PROJECTION_UNWAITED_READ_INTERVAL_MS = 50;
