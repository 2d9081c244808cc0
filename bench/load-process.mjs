// The load generator's own process (forked by bench/load.mjs): one autocannon run in this
// process's main thread, so that the bench's process (which serves the app in most phases) does
// not share an event loop with it.
//
// Why not autocannon's `workers` option, as before: in a worker thread autocannon records each
// answer's time in a histogram of whole milliseconds (hdr-histogram with a lowest value of 1,
// which floors 10.9 to 10), and a p99 of 10-20 ms read to the millisecond moves a ratio of two
// p99s by up to a tenth. Here its documented 'response' event gives each answer's time as a
// float, kept to the microsecond and ranked exactly as that histogram ranks.
import autocannon from 'autocannon';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// 60 s at 20,000 req/s would be 1,200,000 answers: far above any run here. One that somehow
// answered more stops recording rather than grow without bound, and bench/load.mjs refuses it.
const MAX_RECORDED_ANSWERS = 4_000_000;

/**
 * The p-th percentile (0 < p <= 100) of sorted times at the rank hdr-histogram-js takes (p% of n
 * rounded up, less a unit in the last place so that 0.99 * 100 is 99, at least 1), so that each
 * value floored to the millisecond is autocannon's own.
 */
function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const fpRank = (p / 100) * sorted.length;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fpRank - fpRank * Number.EPSILON)));
  return sorted[rank - 1];
}

function latencyMicros(timesMs, dropped) {
  const sorted = Float64Array.from(timesMs).sort();
  let sumMs = 0;
  for (const t of sorted) sumMs += t;
  // Truncated, not rounded, to the microsecond: 10.9996 ms stays 10 when floored to the millisecond.
  const us = (ms) => (ms === null ? null : Math.floor(ms * 1000));
  return {
    answers: sorted.length,
    dropped,
    p50: us(percentile(sorted, 50)),
    p90: us(percentile(sorted, 90)),
    p99: us(percentile(sorted, 99)),
    max: us(sorted.length ? sorted[sorted.length - 1] : null),
    mean: sorted.length ? Math.round((sumMs / sorted.length) * 1000) : null,
  };
}

process.once('message', ({ options, request }) => {
  const timesMs = [];
  let dropped = 0;
  const cpu0 = process.cpuUsage();
  const instance = autocannon(
    {
      ...options,
      requests: [
        {
          method: request.method,
          path: request.path,
          headers: request.headers,
          // The hooks come as file paths; a key set to undefined would replace autocannon's default.
          ...(request.setupRequest && { setupRequest: require(request.setupRequest) }),
          ...(request.onResponse && { onResponse: require(request.onResponse) }),
        },
      ],
    },
    (error, result) => {
      if (error) {
        process.send({ error: String(error?.stack ?? error) }, () => process.exit(1));
        return;
      }
      // The load generator's own CPU over its run (bench/pg-profile.mjs counts it per request).
      const loadCpuMicros = process.cpuUsage(cpu0);
      const answer = { ...result, latencyMicros: latencyMicros(timesMs, dropped), loadCpuMicros };
      process.send({ result: answer }, () => process.exit(0));
    },
  );
  // 2xx answers only, as autocannon's own histogram with excludeErrorStats (bench/load.mjs sets it).
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    if (statusCode < 200 || statusCode > 299) return;
    if (timesMs.length < MAX_RECORDED_ANSWERS) timesMs.push(responseTimeMs);
    else dropped++;
  });
});
