// Event-store appends/s: single-event appends, each to a new stream with 'no_stream' (the shape of
// a deposit creation), a fixed number kept in flight at once.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { round } from './load.mjs';

const TARGET_SECONDS = 7;
const MIN_N = 1_000;
const MAX_N = 60_000;
const WARMUP_N = 300; // connections, JIT, first pages
const CALIBRATE_N = 1_000; // measures the rate that picks N

function depositLikeEvent(i) {
  const transactionId = randomUUID();
  return {
    streamId: `txn-${transactionId}`,
    event: {
      eventId: randomUUID(),
      type: 'DepositRequested',
      schemaVersion: 1,
      data: {
        transactionId,
        number: i + 1,
        merchantId: 'bench-merchant',
        providerId: 'bench-provider',
        infrastructureId: 'bench-infra',
        form: 'h2h',
        externalId: `ES-${i}`,
        requestFingerprint: 'f'.repeat(64),
        echo: {},
        amountKurus: '25000',
        customer: { fullName: 'Bench Customer' },
        receivingAccount: {
          bankAccountId: 'bench-account',
          bank: 'Ziraat Bankası',
          bankCode: '0010',
          holderName: 'Bench Ltd',
          iban: 'TR330006100519786457841326',
          fast: true,
        },
        paymentToken: randomUUID(),
        expiresAt: new Date(Date.now() + 1_800_000).toISOString(),
      },
    },
  };
}

async function appendN(store, n, concurrency, offset) {
  const latencies = new Float64Array(n);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= n) return;
      const { streamId, event } = depositLikeEvent(offset + i);
      const t = performance.now();
      await store.append(streamId, [event], 'no_stream');
      latencies[i] = performance.now() - t;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort();
  const pct = (p) => round(latencies[Math.min(n - 1, Math.floor((p / 100) * n))], 1);
  return {
    n,
    seconds: round(seconds, 2),
    appendsPerSec: round(n / seconds, 0),
    latencyMs: { p50: pct(50), p99: pct(99) },
  };
}

/** Warm-up, then (unless `fixedN` is given) a calibration run that sizes N for ~TARGET_SECONDS. */
export async function measureAppends(store, { concurrency, fixedN }) {
  await appendN(store, WARMUP_N, concurrency, 0);
  let offset = WARMUP_N;
  let calibratedFrom = null;
  if (!fixedN) {
    calibratedFrom = (await appendN(store, CALIBRATE_N, concurrency, offset)).appendsPerSec;
    offset += CALIBRATE_N;
  }
  const n = fixedN ?? Math.min(MAX_N, Math.max(MIN_N, Math.round((calibratedFrom * TARGET_SECONDS) / 500) * 500));
  const main = await appendN(store, n, concurrency, offset);
  const [{ count }] = (await store.database.query('select count(*)::int as count from es_events')).rows;
  return { ...main, concurrency, appendsBefore: offset, calibratedFrom, eventsStored: count };
}
