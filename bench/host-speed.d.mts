// Types of bench/host-speed.mjs for the TypeScript test that uses it.
export interface HostSpeed {
  threads: number;
  durationMs: number;
  digestsPerSecond: number;
  perThread: number[];
}
export function measureHostSpeed(options?: { durationMs?: number; threads?: number }): Promise<HostSpeed>;
export function describeHostSpeed(speed: HostSpeed, reference?: HostSpeed): string;
