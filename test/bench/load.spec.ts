import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runLoad } from '../../bench/load.mjs';

// The bench's load generator (bench/load-process.mjs) times every 2xx answer to the microsecond,
// where autocannon's own histogram keeps whole milliseconds. Against a local server whose answers
// take a random 0-4 ms, with every seventh answered 503: the same answers are counted, each
// percentile floored to the millisecond is autocannon's, and the figures keep their fractions.
describe('bench load generator', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    let n = 0;
    server = createServer((req, res) => {
      req.resume();
      const status = ++n % 7 === 0 ? 503 : 200;
      setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end('ok'), Math.random() * 4);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('times the 2xx answers to the microsecond and agrees with autocannon to the millisecond', async () => {
    const scenario = { label: 'spec', method: 'GET', path: '/', headers: {}, expect: 200 };
    // BENCH_EXPECT_QUIET: the 503s are this test's own, not a failing run's (h2h-response.cjs).
    const result = await runLoad(url, scenario, 1, 'load-spec', { BENCH_EXPECT_QUIET: '1' });
    const times = result.latencyMicros;
    expect(result['2xx']).toBeGreaterThan(100);
    expect(result.non2xx).toBeGreaterThan(10);
    expect(times.answers).toBe(result['2xx']);
    expect(times.dropped).toBe(0);
    for (const p of ['p50', 'p90', 'p99', 'max'] as const) {
      expect(times[p]).not.toBeNull();
      expect(Math.floor((times[p] as number) / 1000)).toBe(result.latency[p]);
    }
    // Three times that are all whole milliseconds would be a one-in-a-billion coincidence.
    const fractions = [times.p50, times.p90, times.p99].filter((us) => (us as number) % 1000 !== 0);
    expect(fractions.length).toBeGreaterThan(0);
    expect(times.p50 as number).toBeLessThanOrEqual(times.p99 as number);
    expect(result.loadCpuMicros.user + result.loadCpuMicros.system).toBeGreaterThan(0);
  });
});
