// Callback delivery phases: the app's callback dispatcher posting to a local node:http receiver.
// Deposits are created and approved through the ledger's command bus (no HTTP on the way in);
// each approval makes one callback. Lane 'a' of the receiver always answers 200, lane 'b' answers
// 500 to a deterministic 30% of its requests (every request whose running count n has n % 10 < 3).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApproveTransactionCommand, RequestDepositCommand } from '../libs/contracts/dist/index.js';
import { configIdFor } from '../services/ledger/dist/index.js';
import { BENCH_BANK_ACCOUNT } from './app-config.mjs';

export const CALLBACK_RETRY_SCHEDULE_MS = [0, 50, 50, 50, 50, 50, 50, 50];
// Long enough for the receiver's gate (below) to hold the first requests while the approvals run.
export const CALLBACK_REQUEST_TIMEOUT_MS = 50_000;
// At least the timeout + 1 s: a shorter lease makes a slow attempt look abandoned (then sent twice, at-least-once).
export const CALLBACK_LEASE_MS = 60_000;
export const CALLBACK_FAIL_SHARE = 0.3;
/** Approvals in flight at once (operators approving in bulk), so the figure is the dispatcher's, not one approval loop's. */
export const CALLBACK_APPROVALS_IN_FLIGHT = 32;

/** The lanes: one infrastructure + provider each, their callbacks posted to /<lane>/... */
export const CALLBACK_LANES = Object.freeze({
  a: { label: 'callbacks, receiver always 200', short: 'Callbacks (all 200)', failing: false },
  b: { label: 'callbacks, receiver 500 on 30%', short: 'Callbacks (30% 500)', failing: true },
});

export function callbackBootstrap(receiverUrl) {
  const lanes = Object.keys(CALLBACK_LANES);
  return {
    infrastructures: lanes.map((lane) => ({
      name: `Bench Callbacks ${lane}`,
      slug: `bench-cb-${lane}`,
      apiForm: 'h2h',
      callbackFormat: 'h2h',
      callback_deposit: `${receiverUrl}/${lane}/dep`,
      callback_withdrawal: `${receiverUrl}/${lane}/wd`,
    })),
    merchants: [
      {
        name: 'Bench Callbacks',
        minAmount: 1,
        maxAmount: 500000,
        depositCommissionPercent: 1.5,
        providers: lanes.map((lane) => ({
          name: `bench-cb-${lane}`,
          infrastructure: `bench-cb-${lane}`,
          apiKey: `ak_bench_cb_${lane}`,
          apiSecret: `sk_bench_cb_${lane}`,
        })),
      },
    ],
    bankAccounts: [BENCH_BANK_ACCOUNT],
  };
}

/** A receiver on 127.0.0.1:0 counting requests and distinct `webhook-id`s per lane. */
export async function startReceiver() {
  const lanes = {};
  for (const [lane, { failing }] of Object.entries(CALLBACK_LANES)) {
    lanes[lane] = {
      failing,
      requests: 0,
      answered500: 0,
      answered200: 0,
      seenIds: new Set(),
      deliveredIds: new Set(),
      duplicateDeliveries: 0, // 200 answers to a webhook-id that had already had one
      missingId: 0,
      lastDeliveredAt: 0,
      // While closed, requests are held unanswered (released in order when it opens).
      gateClosed: false,
      held: [],
    };
  }
  const server = http.createServer((req, res) => {
    const lane = lanes[req.url.split('/')[1]];
    req.resume();
    req.on('end', () => {
      if (!lane) {
        res.writeHead(404).end();
        return;
      }
      if (lane.gateClosed) {
        lane.held.push(() => answer(lane, req, res));
        return;
      }
      answer(lane, req, res);
    });
  });
  const answer = (lane, req, res) => {
    const n = lane.requests++;
    const id = req.headers['webhook-id'];
    if (typeof id !== 'string' || id.length === 0) lane.missingId++;
    else lane.seenIds.add(id);
    if (lane.failing && n % 10 < 3) {
      lane.answered500++;
      res.writeHead(500, { 'content-type': 'text/plain' }).end('bench: deliberate failure');
      return;
    }
    lane.answered200++;
    if (id) {
      if (lane.deliveredIds.has(id)) lane.duplicateDeliveries++;
      else {
        lane.deliveredIds.add(id);
        lane.lastDeliveredAt = performance.now();
      }
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  };
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    lanes,
    closeGate: (lane) => {
      lanes[lane].gateClosed = true;
    },
    openGate: (lane) => {
      lanes[lane].gateClosed = false;
      for (const release of lanes[lane].held.splice(0)) release();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool(items, limit, fn) {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  });
  await Promise.all(workers);
}

/**
 * One lane: create `n` deposits (not timed), approve them all in bulk (CALLBACK_APPROVALS_IN_FLIGHT
 * at once) while the receiver holds every request (its gate is closed: the dispatcher's first
 * requests wait, the rest of the approval events pile up), then open the gate and time the
 * dispatcher from there until every webhook-id has a 200: `callbacksPerSec` is the dispatcher's
 * rate from N approval events, not the approvals'. `endToEndPerSec` is timed from the first
 * approval instead. The timing below, from the first approval until the receiver has answered 200 to `n` distinct webhook-ids (or
 * `timeoutMs` passed: then `timedOut` is true and the figures cover what was delivered).
 */
export async function measureCallbacks(running, receiver, lane, { n, timeoutMs, tag }) {
  const counters = receiver.lanes[lane];
  const origin = {
    merchantId: configIdFor.merchant('Bench Callbacks'),
    providerId: configIdFor.provider(`bench-cb-${lane}`),
    infrastructureId: configIdFor.infrastructure(`bench-cb-${lane}`),
    form: 'h2h',
    customer: { fullName: 'Ayşe Yılmaz' },
    actor: { source: 'bench' },
  };
  const before = { requests: counters.requests, delivered: counters.deliveredIds.size };
  const tCreate = performance.now();
  const ids = new Array(n);
  await pool(ids, 8, async (_, i) => {
    const externalId = `CB-${tag}-${lane}-${i}`;
    const view = await running.commands.execute(
      new RequestDepositCommand({
        ...origin,
        externalId,
        amountKurus: 10_000n + BigInt(i),
        requestFingerprint: `fp-${externalId}`,
      }),
    );
    ids[i] = view.transactionId;
  });
  const createSeconds = (performance.now() - tCreate) / 1000;

  receiver.closeGate(lane);
  const t0 = performance.now();
  await pool(ids, CALLBACK_APPROVALS_IN_FLIGHT, (transactionId) =>
    running.commands.execute(new ApproveTransactionCommand({ transactionId, actor: { source: 'bench' } })),
  );
  const approveSeconds = (performance.now() - t0) / 1000;
  const deliveredWhenApproved = counters.deliveredIds.size - before.delivered;
  const tGate = performance.now();
  receiver.openGate(lane);
  const target = before.delivered + n;
  const deadline = t0 + timeoutMs;
  while (counters.deliveredIds.size < target && performance.now() < deadline) await sleep(10);
  const timedOut = counters.deliveredIds.size < target;
  const end = timedOut ? performance.now() : counters.lastDeliveredAt;
  const seconds = (end - tGate) / 1000;
  const delivered = counters.deliveredIds.size - before.delivered;
  const attempts = counters.requests - before.requests;
  return {
    lane,
    label: CALLBACK_LANES[lane].label,
    n,
    delivered,
    deliveredShare: delivered / n,
    attempts,
    attemptsPerCallback: attempts / n,
    answered500: counters.answered500,
    duplicateDeliveries: counters.duplicateDeliveries,
    requestsWithoutWebhookId: counters.missingId,
    createSeconds: Math.round(createSeconds * 100) / 100,
    approveSeconds: Math.round(approveSeconds * 100) / 100,
    approvalsPerSec: n / approveSeconds,
    // Delivered by the time the last approval answered: close to n means the approvals were the bound.
    deliveredWhenApproved,
    seconds: Math.round(seconds * 100) / 100,
    callbacksPerSec: delivered / seconds,
    endToEndPerSec: delivered / ((end - t0) / 1000),
    timedOut,
    timeoutMs,
  };
}
