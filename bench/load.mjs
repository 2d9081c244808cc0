// HTTP load with autocannon's programmatic API. The load generator runs in a process of its own
// (bench/load-process.mjs) so it does not share the event loop of the in-process server it
// measures, and times every answer to the microsecond.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const file = (name) => fileURLToPath(new URL(`./${name}`, import.meta.url));
const ON_RESPONSE = file('h2h-response.cjs');
const JSON_BODY = { 'content-type': 'application/json' };

export const LOAD = Object.freeze({
  connections: 32,
  pipelining: 1,
  warmupSeconds: 2,
  durationSeconds: 10,
  timeoutSeconds: 10,
});

/**
 * What one HTTP phase sends. `setupRequest` (a file: it runs in autocannon's worker) builds every
 * request; `expect` is the status code a success must have (another 2xx is reported as a problem).
 * `path` is the first request's path; setupRequest may change it per request (`route` says how).
 */
export const SCENARIOS = Object.freeze({
  h2hDeposit: {
    label: 'H2H deposit creation',
    method: 'POST',
    path: '/deposit/bank',
    headers: JSON_BODY,
    setupRequest: file('h2h-request.cjs'),
    expect: 201,
  },
  merchantDeposit: {
    label: 'Merchant deposit creation',
    method: 'POST',
    path: '/deposit',
    headers: { ...JSON_BODY, 'x-api-key': 'ak_bench_m', 'x-api-secret': 'sk_bench_m' },
    setupRequest: file('merchant-request.cjs'),
    expect: 200,
  },
  infrastructureDeposit: {
    label: 'Infra deposit creation',
    method: 'POST',
    path: '/deposits/deposit-request',
    headers: JSON_BODY,
    setupRequest: file('infra-request.cjs'),
    expect: 200,
  },
  // No body and no content-type: a header-only POST (an empty body with application/json is a 400).
  status: {
    label: 'Status lookup',
    method: 'POST',
    path: '/status/x',
    route: '/status/{id}',
    headers: { 'x-api-key': 'ak_bench_1', 'x-api-secret': 'sk_bench_1' },
    setupRequest: file('status-request.cjs'),
    expect: 201,
  },
  // The floors: the same bodies / identifiers, bare Fastify.
  floorInsert: {
    label: 'floor: one INSERT',
    method: 'POST',
    path: '/deposit/bank',
    headers: JSON_BODY,
    setupRequest: file('h2h-request.cjs'),
    expect: 201,
  },
  floorSelect: {
    label: 'floor: one SELECT by PK',
    method: 'POST',
    path: '/status/x',
    route: '/status/{id}',
    headers: { 'x-api-key': 'ak_bench_1', 'x-api-secret': 'sk_bench_1' },
    setupRequest: file('status-request.cjs'),
    expect: 201,
  },
});

const LOAD_PROCESS = file('load-process.mjs');

/**
 * One autocannon run in a child process; env: extra variables for it (the request hooks read them,
 * e.g. the identifier file of a status phase). The result is autocannon's, plus `latencyMicros`:
 * the 2xx answers' times to the microsecond (autocannon's own `latency` keeps whole milliseconds).
 */
export function runLoad(url, scenario, durationSeconds, phase, env) {
  const child = fork(LOAD_PROCESS, [], {
    env: { ...process.env, BENCH_PHASE: phase, BENCH_EXPECT: String(scenario.expect), ...env },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let answer = null;
    child.once('message', (message) => (answer = message));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (answer?.result?.latencyMicros.dropped > 0)
        reject(new Error(`load process for ${phase}: ${answer.result.latencyMicros.dropped} answers not timed`));
      else if (answer?.result) resolve(answer.result);
      else reject(new Error(`load process for ${phase} ended (${signal ?? code}): ${answer?.error ?? 'no result'}`));
    });
    child.send({
      options: {
        url,
        connections: LOAD.connections,
        pipelining: LOAD.pipelining,
        duration: durationSeconds,
        timeout: LOAD.timeoutSeconds,
        // autocannon's latency and bytes count every answer unless told otherwise; the bench times
        // successful answers only (a fast error must not make a p99 look good).
        excludeErrorStats: true,
      },
      request: {
        method: scenario.method,
        path: scenario.path,
        headers: scenario.headers,
        setupRequest: scenario.setupRequest,
        onResponse: ON_RESPONSE,
      },
    });
  });
}

const millis = (micros) => (micros === null ? null : micros / 1000);

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
    // To the microsecond, as milliseconds with three decimals.
    latencyMs: {
      p50: millis(result.latencyMicros.p50),
      p90: millis(result.latencyMicros.p90),
      p99: millis(result.latencyMicros.p99),
      max: millis(result.latencyMicros.max),
      mean: millis(result.latencyMicros.mean),
    },
  };
}

/** Warm-up (discarded except for its error counts), then the measured run. */
export async function measure(url, scenario, phase, env = {}) {
  const warm = summarise(await runLoad(url, scenario, LOAD.warmupSeconds, `${phase} warm-up`, env));
  const main = summarise(await runLoad(url, scenario, LOAD.durationSeconds, phase, env));
  return {
    scenario: { method: scenario.method, path: scenario.route ?? scenario.path, expect: scenario.expect },
    ...main,
    warmup: {
      requests: warm.requests,
      ok2xx: warm.ok2xx,
      non2xx: warm.non2xx,
      errors: warm.errors,
      statusCodes: warm.statusCodes,
    },
  };
}

export function round(value, digits = 0) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
