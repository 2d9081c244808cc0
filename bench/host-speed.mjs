// The host's speed at one moment: SHA-256 digests of a 1 KiB buffer per second, on one worker
// thread per core at once, for `durationMs`. The replay's goal is absolute (events/s) and this
// shared machine's speed moves by up to half within an hour (310,481 to 454,293 digests/s on one
// thread between two full runs), so the bench prints this figure at
// its start and again just before the replay, to tell a slower replay from a slower host.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const MAX_DURATION_MS = 10_000;
const MAX_THREADS = 64;
const DIGEST_INPUT_BYTES = 1024;

// One thread's loop, as source: the bench has no build step of its own.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const input = Buffer.alloc(${DIGEST_INPUT_BYTES}, 7);
const started = performance.now();
let digests = 0;
while (performance.now() - started < workerData.durationMs) {
  for (let i = 0; i < 500; i++) createHash('sha256').update(input).digest();
  digests += 500;
}
parentPort.postMessage({ digests, seconds: (performance.now() - started) / 1000 });
`;

/**
 * @param {{ durationMs?: number, threads?: number }} [options]
 * @returns {Promise<{ threads: number, durationMs: number, digestsPerSecond: number, perThread: number[] }>}
 */
export async function measureHostSpeed({ durationMs = 2_000, threads = availableParallelism() } = {}) {
  if (!Number.isInteger(durationMs) || durationMs < 100 || durationMs > MAX_DURATION_MS)
    throw new RangeError(`host speed: durationMs must be 100..${MAX_DURATION_MS}, got ${durationMs}`);
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS)
    throw new RangeError(`host speed: threads must be 1..${MAX_THREADS}, got ${threads}`);
  const perThread = await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise((resolve, reject) => {
          const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { durationMs } });
          worker.once('message', ({ digests, seconds }) => resolve(Math.round(digests / seconds)));
          worker.once('error', reject);
          worker.once('exit', (code) => reject(new Error(`host speed: worker exited with ${code} before its result`)));
        }),
    ),
  );
  return { threads, durationMs, digestsPerSecond: perThread.reduce((a, b) => a + b, 0), perThread };
}

/** One line for the report: the total, each thread, and the ratio to a reference measured earlier in the run. */
export function describeHostSpeed(speed, reference) {
  const ratio = reference
    ? ` (×${(speed.digestsPerSecond / reference.digestsPerSecond).toFixed(2)} of the run's start)`
    : '';
  return (
    `host speed: ${speed.digestsPerSecond.toLocaleString('en-US')} SHA-256 digests/s of 1 KiB on ${speed.threads} threads at once ` +
    `(${speed.perThread.map((n) => n.toLocaleString('en-US')).join(' + ')}; ${speed.durationMs} ms)${ratio}`
  );
}

// `node bench/host-speed.mjs [durationMs]` prints one measurement.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(describeHostSpeed(await measureHostSpeed({ durationMs: Number(process.argv[2] ?? 2_000) })));
}
