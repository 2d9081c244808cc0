import { describeHostSpeed, measureHostSpeed } from '../../bench/host-speed.mjs';

// The bench's host probe (bench/host-speed.mjs): one worker per thread hashing for the given time,
// each thread's rate and their sum, printed against the run's first probe.
describe('bench host speed probe', () => {
  it('runs one thread per requested thread for the requested time and sums their rates', async () => {
    const started = performance.now();
    const speed = await measureHostSpeed({ durationMs: 300, threads: 2 });
    const elapsedMs = performance.now() - started;
    expect(elapsedMs).toBeGreaterThanOrEqual(300);
    expect(elapsedMs).toBeLessThan(5_000);
    expect(speed.threads).toBe(2);
    expect(speed.perThread).toHaveLength(2);
    for (const rate of speed.perThread) {
      expect(Number.isInteger(rate)).toBe(true);
      expect(rate).toBeGreaterThan(1_000);
    }
    expect(speed.digestsPerSecond).toBe(speed.perThread[0]! + speed.perThread[1]!);
    const line = describeHostSpeed(speed, { ...speed, digestsPerSecond: speed.digestsPerSecond / 2 });
    expect(line).toContain('on 2 threads at once');
    expect(line).toContain("(×2.00 of the run's start)");
  });

  it('refuses a duration or a thread count outside its bounds', async () => {
    await expect(measureHostSpeed({ durationMs: 50 })).rejects.toThrow(/durationMs must be 100\.\.10000/);
    await expect(measureHostSpeed({ durationMs: 20_000 })).rejects.toThrow(/durationMs must be 100\.\.10000/);
    await expect(measureHostSpeed({ durationMs: 200, threads: 0 })).rejects.toThrow(/threads must be 1\.\.64/);
  });
});
