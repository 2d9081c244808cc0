// Types of bench/load.mjs for the TypeScript tests that use it (only what they use).
export interface Scenario {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  setupRequest?: string;
  expect: number;
}
export interface LatencyMicros {
  answers: number;
  dropped: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
  mean: number | null;
}
/** autocannon's result (only the fields the tests read), plus the load process's own figures. */
export interface LoadResult {
  '2xx': number;
  non2xx: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  latencyMicros: LatencyMicros;
  loadCpuMicros: { user: number; system: number };
}
export function runLoad(
  url: string,
  scenario: Scenario,
  durationSeconds: number,
  phase: string,
  env: Record<string, string>,
): Promise<LoadResult>;
