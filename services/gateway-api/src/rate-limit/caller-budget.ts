/**
 * What the gateway lets one caller spend per minute, in three separate budgets (fixed one-minute
 * windows, in memory: per process):
 *
 * - **per API key, verified requests only**: a request is charged to a key once its signature or
 *   secret has been checked. Naming a key costs its merchant nothing, so no caller without the
 *   secret can spend (or exhaust) a merchant's quota.
 * - **per source IP, failed authentications**: an unknown key, a wrong signature or secret, and a
 *   malformed API request that names a key. Past the limit the IP is answered 429 before any check,
 *   whatever key it names, so inventing keys is limited like guessing secrets.
 * - **per API key, failed authentications** (lock-out of guessing): past the limit the key is under
 *   attack, and from then on a source that has failed on that key in the window is refused even
 *   when its next guess is right. Sources that have not failed on it (the merchant's servers) go on
 *   being verified as usual, so an attacker cannot lock the merchant out, and one that tries from
 *   ever new addresses gets a single guess from each (and each failure also counts for its IP).
 *
 * Every map is bounded (`maxTracked`): past it expired windows are dropped, then the oldest.
 */
export interface CallerBudgetLimits {
  verifiedPerKey: number;
  failuresPerIp: number;
  failuresPerKey: number;
  windowMs: number;
  maxTracked: number;
}

export interface BudgetRefusal {
  message: string;
  retryAfterSeconds: number;
}

class FixedWindows {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly maxTracked: number,
  ) {}

  count(key: string, now: number): { count: number; resetAt: number } {
    const window = this.windows.get(key);
    return window && window.resetAt > now ? window : { count: 0, resetAt: now + this.windowMs };
  }

  hit(key: string, now: number): { count: number; resetAt: number } {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (window) this.windows.delete(key);
      else if (this.windows.size >= this.maxTracked) this.makeRoom(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return window;
  }

  private makeRoom(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    // Still full: the oldest windows (Map order is insertion order) give way.
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxTracked) break;
      this.windows.delete(key);
    }
  }
}

const secondsUntil = (resetAt: number, now: number) => Math.max(1, Math.ceil((resetAt - now) / 1000));

export class CallerBudget {
  private readonly verified: FixedWindows;
  private readonly ipFailures: FixedWindows;
  private readonly keyFailures: FixedWindows;
  private readonly keyIpFailures: FixedWindows;

  constructor(private readonly limits: () => CallerBudgetLimits) {
    const { windowMs, maxTracked } = limits();
    this.verified = new FixedWindows(windowMs, maxTracked);
    this.ipFailures = new FixedWindows(windowMs, maxTracked);
    this.keyFailures = new FixedWindows(windowMs, maxTracked);
    this.keyIpFailures = new FixedWindows(windowMs, maxTracked);
  }

  /** Before any check of the credentials: an IP past its failures is refused whatever it names. */
  beforeVerification(ip: string, now = Date.now()): BudgetRefusal | undefined {
    const failures = this.ipFailures.count(ip, now);
    if (failures.count < this.limits().failuresPerIp) return undefined;
    return {
      message: `too many failed authentications from this address (${this.limits().failuresPerIp} per minute); retry after ${secondsUntil(failures.resetAt, now)} s`,
      retryAfterSeconds: secondsUntil(failures.resetAt, now),
    };
  }

  /** The credentials were right: refused if the key is being guessed from here, or spent its quota. */
  verifiedRequest(apiKey: string, ip: string, now = Date.now()): BudgetRefusal | undefined {
    const { failuresPerKey, verifiedPerKey } = this.limits();
    const keyFailures = this.keyFailures.count(apiKey, now);
    if (keyFailures.count >= failuresPerKey && this.keyIpFailures.count(`${apiKey}\u0000${ip}`, now).count > 0) {
      return {
        message: `too many failed authentications for this API key; retry after ${secondsUntil(keyFailures.resetAt, now)} s`,
        retryAfterSeconds: secondsUntil(keyFailures.resetAt, now),
      };
    }
    const spent = this.verified.hit(apiKey, now);
    if (spent.count <= verifiedPerKey) return undefined;
    return {
      message: `rate limit of ${verifiedPerKey} requests per minute reached; retry after ${secondsUntil(spent.resetAt, now)} s`,
      retryAfterSeconds: secondsUntil(spent.resetAt, now),
    };
  }

  /** The credentials were wrong (or the request naming `apiKey` was malformed): counted, maybe refused now. */
  failedRequest(apiKey: string | undefined, ip: string, now = Date.now()): BudgetRefusal | undefined {
    const { failuresPerIp, failuresPerKey } = this.limits();
    const fromIp = this.ipFailures.hit(ip, now);
    let forKey: { count: number; resetAt: number } | undefined;
    if (apiKey !== undefined) {
      forKey = this.keyFailures.hit(apiKey, now);
      this.keyIpFailures.hit(`${apiKey}\u0000${ip}`, now);
    }
    if (fromIp.count > failuresPerIp) {
      return {
        message: `too many failed authentications from this address (${failuresPerIp} per minute); retry after ${secondsUntil(fromIp.resetAt, now)} s`,
        retryAfterSeconds: secondsUntil(fromIp.resetAt, now),
      };
    }
    if (forKey && forKey.count > failuresPerKey) {
      return {
        message: `too many failed authentications for this API key; retry after ${secondsUntil(forKey.resetAt, now)} s`,
        retryAfterSeconds: secondsUntil(forKey.resetAt, now),
      };
    }
    return undefined;
  }
}
