import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@nestjs/common';
import { Agent } from 'undici';
import { openPglite, PostgresEventStore, type SqlDatabase } from '@transfergate/event-store';
import { SecretBox } from '@transfergate/security';
import type { CallbackSettings } from '@transfergate/callback-dispatcher';
import { DeliveryWorker } from '../../services/callback-dispatcher/src/delivery/delivery-worker.js';
import { postCallback } from '../../services/callback-dispatcher/src/delivery/http-delivery.js';
import { CALLBACK_SCHEMA } from '../../services/callback-dispatcher/src/schema.js';

/**
 * How one live process could deliver a callback twice (bench, PGlite): an answer that arrived in
 * time recorded as a timeout after the event loop had been blocked past the deadline (then retried),
 * and a claim that took every due delivery instead of `limit`. Plus the guard that a worker never
 * claims a delivery it still has in flight.
 */

const quietLogger = { log: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;

function blockEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // a stalled process (on PGlite: a long burst of synchronous database work)
  }
}

interface Hit {
  id: string;
  at: number;
}

/** A receiver on 127.0.0.1:0; `answer` decides when and how each request is answered. */
async function startReceiver(
  answer: (respond: (status: number) => void, hit: Hit) => void,
): Promise<{ url: string; hits: Hit[]; active: () => number; maxActive: () => number; close: () => Promise<void> }> {
  const hits: Hit[] = [];
  let active = 0;
  let maxActive = 0;
  const server: Server = createServer((req, res) => {
    active++;
    maxActive = Math.max(maxActive, active);
    req.resume();
    req.on('end', () => {
      const hit = { id: String(req.headers['webhook-id']), at: Date.now() };
      hits.push(hit);
      answer((status) => {
        active--;
        res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      }, hit);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    active: () => active,
    maxActive: () => maxActive,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('postCallback after a stalled event loop', () => {
  it('an answer that arrived within the deadline is a success, not a timeout (no second attempt)', async () => {
    const timeoutMs = 300;
    let stalledMs = 0;
    const receiver = await startReceiver((respond) => {
      respond(200);
      // The 200 is on its way; now the whole process stalls past the sender's deadline, so its timer
      // and the waiting answer become ready in the same loop turn.
      const started = Date.now();
      blockEventLoop(timeoutMs + 400);
      stalledMs = Date.now() - started;
    });
    const agent = new Agent();
    try {
      const result = await postCallback({
        dispatcher: agent,
        url: `${receiver.url}/cb`,
        headers: { 'content-type': 'application/json', 'webhook-id': 'w-1' },
        body: '{}',
        timeoutMs,
        stop: new AbortController().signal,
      });
      expect(stalledMs).toBeGreaterThan(timeoutMs);
      expect(result).toMatchObject({ outcome: 'success', statusCode: 200, error: null });
      expect(receiver.hits).toHaveLength(1);
    } finally {
      await agent.close();
      await receiver.close();
    }
  });

  it('still times out when no answer comes', async () => {
    const receiver = await startReceiver(() => undefined);
    const agent = new Agent();
    try {
      const result = await postCallback({
        dispatcher: agent,
        url: `${receiver.url}/cb`,
        headers: { 'webhook-id': 'w-2' },
        body: '{}',
        timeoutMs: 200,
        stop: new AbortController().signal,
      });
      expect(result).toMatchObject({ outcome: 'timeout', statusCode: null });
    } finally {
      await agent.destroy();
      await receiver.close();
    }
  });
});

describe('delivery worker claims (PGlite)', () => {
  let db: SqlDatabase;
  let store: PostgresEventStore;
  const workers: DeliveryWorker[] = [];

  beforeEach(async () => {
    db = await openPglite();
    store = await PostgresEventStore.create(db);
    await db.exec(CALLBACK_SCHEMA);
  });

  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    await db.close();
  });

  function worker(settings: Partial<CallbackSettings>, logger: Logger = quietLogger): DeliveryWorker {
    const created = new DeliveryWorker(
      db,
      store,
      new SecretBox(randomBytes(32)),
      {
        secretKey: randomBytes(32),
        retryScheduleMs: [0, 50],
        requestTimeoutMs: 5_000,
        leaseMs: 30_000,
        pollIntervalMs: 20,
        concurrency: 16,
        // The receiver listens on loopback, which the egress policy refuses unless allow-listed.
        allowedTargets: ['127.0.0.1/32'],
        ...settings,
      },
      `test:${randomBytes(3).toString('hex')}`,
      logger,
    );
    // No provider stream in this database: the worker signs with a fixed secret.
    Object.assign(created, { providerSecrets: async () => ['sk_test'] });
    workers.push(created);
    return created;
  }

  async function addDeliveries(url: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      ids.push(id);
      await db.query(
        `insert into cb_deliveries (delivery_id, event_id, transaction_id, transaction_number, external_id, type,
           outcome, provider_id, infrastructure_id, format, target_url, body, state, due_at)
         values ($1, $2, $3, $4, $5, 'deposit', 'approved', 'p-1', 'i-1', 'h2h', $6, '{}', 'pending', now())`,
        [id, randomUUID(), randomUUID(), i + 1, `T-${i}`, url],
      );
    }
    return ids;
  }

  async function attempts(): Promise<Array<{ delivery_id: string; n: number }>> {
    const { rows } = await db.query<{ delivery_id: string; n: number }>(
      `select delivery_id::text, count(*)::int as n from cb_attempts group by delivery_id`,
    );
    return rows;
  }

  it('one claim takes at most `concurrency` deliveries (the LIMIT subquery is not re-run per row)', async () => {
    const held: Array<() => void> = [];
    const receiver = await startReceiver((respond) => held.push(() => respond(200)));
    try {
      await addDeliveries(`${receiver.url}/cb`, 40);
      worker({ concurrency: 4 }).start();
      await waitFor(() => receiver.active() >= 4, 10_000, 'four requests in flight');
      await sleep(300);
      expect(receiver.maxActive()).toBe(4);
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as n from cb_deliveries where lease_owner is not null`,
      );
      expect(rows[0]!.n).toBe(4);
      // Let everything through: all 40 delivered once each, never more than 4 at a time.
      const release = setInterval(() => held.splice(0).forEach((respond) => respond()), 20);
      try {
        await waitFor(() => receiver.hits.length >= 40, 20_000, 'all 40 deliveries');
        await waitFor(() => held.length === 0 && receiver.active() === 0, 5_000, 'the last answers');
      } finally {
        clearInterval(release);
      }
      expect(receiver.maxActive()).toBe(4);
      expect(new Set(receiver.hits.map((hit) => hit.id)).size).toBe(40);
    } finally {
      held.splice(0).forEach((respond) => respond());
      await receiver.close();
    }
  });

  it('under a backlog, claims and records take many deliveries per statement, each delivered once', async () => {
    // Claiming for every freed slot and recording every answer alone took two statements per
    // delivery, which on PGlite (all on the one thread) bounded the dispatcher to ~400/s.
    const receiver = await startReceiver((respond) => respond(200));
    const statements = { claim: 0, record: 0 };
    const query = db.query.bind(db);
    db.query = (sql, params) => {
      if (sql.includes('with picked as materialized')) statements.claim++;
      if (sql.includes('jsonb_to_recordset')) statements.record++;
      return query(sql, params);
    };
    try {
      const ids = await addDeliveries(`${receiver.url}/cb`, 300);
      worker({ concurrency: 32 }).start();
      await waitFor(() => receiver.hits.length >= 300, 60_000, 'all 300 deliveries');
      const delivered = async () =>
        (await db.query<{ n: number }>(`select count(*)::int as n from cb_deliveries where state = 'delivered'`))
          .rows[0]!.n;
      const until = Date.now() + 10_000;
      while ((await delivered()) < 300 && Date.now() < until) await sleep(20);
      expect(await delivered()).toBe(300);
      expect(receiver.maxActive()).toBeLessThanOrEqual(32);
      expect(receiver.hits.map((hit) => hit.id).sort()).toEqual([...ids].sort());
      expect((await attempts()).every((row) => row.n === 1)).toBe(true);
      // Before: about 300 of each. Gathered: half the concurrency (16) per claim, most answers per record.
      expect(statements.claim).toBeLessThanOrEqual(60);
      expect(statements.record).toBeLessThanOrEqual(60);
    } finally {
      db.query = query;
      await receiver.close();
    }
  });

  it('never claims a delivery it still has in flight, even once its lease has run out', async () => {
    // The lease (150 ms) expires long before the receiver answers (800 ms): without the guard the
    // worker's next claim takes its own in-flight delivery and POSTs it a second time.
    const receiver = await startReceiver((respond) => setTimeout(() => respond(200), 800));
    try {
      const [id] = await addDeliveries(`${receiver.url}/cb`, 1);
      worker({ leaseMs: 150, requestTimeoutMs: 5_000, pollIntervalMs: 20 }).start();
      await waitFor(() => receiver.hits.length >= 1, 10_000, 'the first request');
      // The answer comes after 800 ms; a second request would come within this window.
      await sleep(1_500);
      expect(receiver.hits.map((hit) => hit.id)).toEqual([id]);
      const row = async () =>
        (
          await db.query<{ state: string; attempt_count: number }>(
            `select state, attempt_count from cb_deliveries where delivery_id = $1::uuid`,
            [id],
          )
        ).rows[0];
      const until = Date.now() + 5_000;
      while ((await row())?.state !== 'delivered' && Date.now() < until) await sleep(20);
      expect(await row()).toEqual({ state: 'delivered', attempt_count: 1 });
      expect(receiver.hits).toHaveLength(1);
      expect(await attempts()).toEqual([{ delivery_id: id, n: 1 }]);
    } finally {
      await receiver.close();
    }
  });

  it('a failed attempt is logged at warn with its error (no secret), and its retry is jittered within bounds', async () => {
    const receiver = await startReceiver((respond) => respond(503));
    const warnings: unknown[] = [];
    const logger = { ...quietLogger, warn: (line: unknown) => warnings.push(line) } as unknown as Logger;
    try {
      const ids = await addDeliveries(`${receiver.url}/cb`, 2);
      // The injected random: the first delivery draws 0 (earliest), the second 1 (latest).
      const draws = [0, 1];
      worker(
        { retryScheduleMs: [0, 60_000], retryJitterRatio: 0.2, random: () => draws.shift() ?? 0.5 },
        logger,
      ).start();
      await waitFor(() => warnings.length >= 2, 10_000, 'two warnings');
      const lines = warnings as Array<Record<string, unknown>>;
      for (const line of lines) {
        expect(line).toMatchObject({
          msg: 'callback attempt failed',
          outcome: 'http_error',
          statusCode: 503,
          next: 'pending',
        });
        expect(ids).toContain(line.deliveryId);
        expect(String(line.error)).toContain('503');
        // Neither the signing secret nor the target URL is written.
        expect(JSON.stringify(line)).not.toContain('sk_test');
        expect(JSON.stringify(line)).not.toContain(receiver.url);
      }
      expect(lines.map((line) => line.retryInMs).sort()).toEqual([60_000, 72_000]);
      const { rows } = await db.query<{ ms: number }>(
        `select round(extract(epoch from (next_due_at - started_at)) * 1000)::int as ms from cb_attempts order by ms`,
      );
      // next_due_at is set from the database clock after the attempt: the jittered delay plus the attempt's time.
      expect(rows[0]!.ms).toBeGreaterThanOrEqual(60_000);
      expect(rows[0]!.ms).toBeLessThan(62_000);
      expect(rows[1]!.ms).toBeGreaterThanOrEqual(72_000);
      expect(rows[1]!.ms).toBeLessThan(74_000);
    } finally {
      await receiver.close();
    }
  });
});
