/**
 * PGlite runs a statement synchronously in WASM and resolves its promise as a microtask, so a loop
 * of statements (a projection catching up on a backlog, a bulk provisioning) never hands the event
 * loop a turn: HTTP requests, timers (leases, callback deadlines) and signals wait until the loop
 * ends. Measured: a `setTimeout(0)` did not fire during 2,400 back-to-back queries (0.5 s), and the
 * bench's callback phase saw 12-17 s stalls. Before each statement, `beforeStatement` gives the event
 * loop one turn once a run of statements has gone on for MAX_MICROTASK_RUN_MS without one.
 */
export const MAX_MICROTASK_RUN_MS = 10;

export class EventLoopTurns {
  private runStartedAtMs = 0;
  /** Pending while the event loop has not turned since the run started; cleared by that turn. */
  private marker: NodeJS.Immediate | undefined;

  constructor(private readonly budgetMs = MAX_MICROTASK_RUN_MS) {
    if (!(budgetMs > 0)) throw new RangeError('budgetMs must be > 0');
  }

  /** undefined while within the budget (no extra tick); else a promise that resolves after a turn. */
  beforeStatement(): Promise<void> | undefined {
    if (this.marker === undefined) {
      this.runStartedAtMs = performance.now();
      this.marker = setImmediate(() => {
        this.marker = undefined;
      });
      return undefined;
    }
    if (performance.now() - this.runStartedAtMs < this.budgetMs) return undefined;
    // The marker was queued first, so it runs (and ends this run) before this resolves.
    return new Promise<void>((resolve) => setImmediate(resolve));
  }
}
