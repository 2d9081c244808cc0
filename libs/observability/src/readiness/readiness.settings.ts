/** When a process stops being ready: any consumer further behind the head than either bound. */
export interface ReadinessSettings {
  /** READY_MAX_LAG_EVENTS: events after a consumer's checkpoint (default 1000). */
  maxLagEvents: number;
  /** READY_MAX_LAG_SECONDS: age of the oldest event a consumer has not handled (default 30). */
  maxLagSeconds: number;
}

export const DEFAULT_READINESS: ReadinessSettings = Object.freeze({ maxLagEvents: 1_000, maxLagSeconds: 30 });
