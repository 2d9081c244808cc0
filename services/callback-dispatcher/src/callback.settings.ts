import { DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS } from '@transfergate/contracts';
import { egressPolicy } from '@transfergate/security';

/** Settings of the callback dispatcher; the runtime builds them from its validated configuration. */
export interface CallbackSettings {
  /** Key that unseals provider API secrets (the same SecretBox key as the ledger's). */
  secretKey: Buffer;
  /**
   * Retry schedule in ms (entry i = delay before attempt i+1) used while nobody saved API settings;
   * saved settings (`callbackRetryScheduleSeconds`) always win. Undefined: the default of
   * docs/architecture.md.
   */
  retryScheduleMs?: number[];
  /** A delivery attempt not answered within this long is a timeout (docs/architecture.md: 15 s). */
  requestTimeoutMs: number;
  /**
   * How long a claimed delivery stays claimed. Must exceed the request timeout, so a live worker
   * always finishes before anyone else may take the delivery; a crashed worker's delivery is taken
   * over once it expires.
   */
  leaseMs: number;
  /** Longest sleep of an idle worker (an enqueue in this process or a due retry wakes it earlier). */
  pollIntervalMs: number;
  /** Deliveries one worker has in flight at most. */
  concurrency: number;
  /**
   * CALLBACK_ALLOWED_TARGETS: CIDR ranges callbacks may reach although they are not public
   * (loopback, private ...). Empty: public addresses only (libs/security egress-policy).
   */
  allowedTargets?: string[];
  /**
   * Spread of each retry delay (retry-policy jitteredDelay), 0..1; undefined: DEFAULT_RETRY_JITTER_RATIO.
   * Tests that assert exact due times set 0, or inject `random`.
   */
  retryJitterRatio?: number;
  /** Source of the jitter, [0, 1); Math.random unless a test gives a fixed one. */
  random?: () => number;
}

export const CALLBACK_SETTINGS = 'transfergate:CallbackSettings';

export const DEFAULT_CALLBACK_REQUEST_TIMEOUT_MS = 15_000;
export const DEFAULT_CALLBACK_LEASE_MS = 30_000;
/** Lease margin over the request timeout: time to record the attempt after the answer. */
export const CALLBACK_LEASE_MARGIN_MS = 1_000;

export const DEFAULT_CALLBACK_RETRY_SCHEDULE_MS: readonly number[] = DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS.map(
  (seconds) => seconds * 1_000,
);

export function callbackSettingsFrom(secretKey: Buffer): CallbackSettings {
  return {
    secretKey,
    requestTimeoutMs: DEFAULT_CALLBACK_REQUEST_TIMEOUT_MS,
    leaseMs: DEFAULT_CALLBACK_LEASE_MS,
    pollIntervalMs: 1_000,
    // Claims and records are batched by the free slots (delivery-worker.ts): with 16, a batch was a
    // handful of rows and the statements' fixed cost bounded the embedded store to ~650 callbacks/s.
    concurrency: 64,
  };
}

/** Refuses settings under which two workers could both deliver the same attempt. */
export function assertCallbackSettings(settings: CallbackSettings): void {
  const problems: string[] = [];
  if (!(settings.requestTimeoutMs >= 1)) problems.push('requestTimeoutMs must be ≥ 1');
  if (!(settings.leaseMs >= settings.requestTimeoutMs + CALLBACK_LEASE_MARGIN_MS)) {
    problems.push(`leaseMs must be ≥ requestTimeoutMs + ${CALLBACK_LEASE_MARGIN_MS}`);
  }
  if (!(settings.pollIntervalMs >= 1)) problems.push('pollIntervalMs must be ≥ 1');
  if (!(Number.isInteger(settings.concurrency) && settings.concurrency >= 1)) problems.push('concurrency must be ≥ 1');
  if (settings.retryScheduleMs && settings.retryScheduleMs.length === 0) problems.push('retryScheduleMs is empty');
  const jitter = settings.retryJitterRatio;
  if (jitter !== undefined && !(jitter >= 0 && jitter <= 1)) problems.push('retryJitterRatio must be within 0..1');
  try {
    egressPolicy(settings.allowedTargets);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (problems.length > 0) throw new RangeError(`invalid callback settings: ${problems.join('; ')}`);
}
