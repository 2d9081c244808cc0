// HTTP load with autocannon's programmatic API. The load generator runs in one autocannon worker
// thread so it does not share the event loop of the in-process server it measures.
import autocannon from 'autocannon';
import { fileURLToPath } from 'node:url';

const SETUP_REQUEST = fileURLToPath(new URL('./h2h-request.cjs', import.meta.url));
const ON_RESPONSE = fileURLToPath(new URL('./h2h-response.cjs', import.meta.url));

export const LOAD = Object.freeze({
  connections: 32,
  pipelining: 1,
  warmupSeconds: 2,
  durationSeconds: 10,
  timeoutSeconds: 10,
  path: '/deposit/bank',
});

function run(url, durationSeconds, phase) {
  process.env.BENCH_PHASE = phase; // copied into the worker's env at its creation
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: LOAD.connections,
        pipelining: LOAD.pipelining,
        duration: durationSeconds,
        timeout: LOAD.timeoutSeconds,
        workers: 1,
        headers: { 'content-type': 'application/json' },
        requests: [{ method: 'POST', path: LOAD.path, setupRequest: SETUP_REQUEST, onResponse: ON_RESPONSE }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

function summarise(result) {
  const statusCodes = {};
  for (const [code, value] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(value.count);
  const ok = Number(result['2xx'] ?? 0);
  const seconds = Number(result.duration);
  return {
    seconds: round(seconds, 2),
    requests: Number(result.requests.total),
    ok2xx: ok,
    non2xx: Number(result.non2xx ?? 0),
    errors: Number(result.errors ?? 0),
    timeouts: Number(result.timeouts ?? 0),
    statusCodes,
    // Successful requests only: a fast error must not count as throughput.
    reqPerSec: round(ok / seconds, 1),
    // Per-second completed requests: a min far below the mean means stalls.
    perSecond: { min: result.requests.min, mean: round(result.requests.average, 1), max: result.requests.max },
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: round(result.latency.average, 2),
    },
  };
}

/** Warm-up (discarded except for its error counts), then the measured run. */
export async function measure(url, phase) {
  const warm = summarise(await run(url, LOAD.warmupSeconds, `${phase} warm-up`));
  const main = summarise(await run(url, LOAD.durationSeconds, phase));
  return { ...main, warmup: { requests: warm.requests, ok2xx: warm.ok2xx, non2xx: warm.non2xx, errors: warm.errors } };
}

export function round(value, digits = 0) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
