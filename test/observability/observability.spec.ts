import { randomBytes } from 'node:crypto';
import { ENGINES, issueBootstrap, postJson, startTestApp, type Engine, type TestApp } from '../support/test-app.js';
import { panelClient } from '../panel/panel-client.js';
import {
  CB_KEYS,
  CallbackReceiver,
  callbackBootstrap,
  h2hRequest,
  infraRequest,
} from '../callbacks/callback-fixture.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const MAX_LAG_EVENTS = 3;

/** One scraped sample: `name{labels} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and (at least) these labels; 0 when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

/**
 * Operability on the real app over real HTTP, on both engines: /metrics after a deposit, an
 * approval and its callback; the request id of the deposit in the ledger's, the projection's and
 * the dispatcher's log lines and in the callback's header; /ready while a consumer is held back;
 * and no secret in any captured log line.
 */
describe.each(ENGINES)('operability (%s)', (engine: Engine) => {
  let app: TestApp;
  let receiver: CallbackReceiver;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  const lines: string[] = [];
  const sentHashes: string[] = [];
  const ext = (prefix: string) => `${prefix}-${engine}-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    app = await startTestApp(engine, {
      logLevel: 'debug',
      logDestination: { write: (line: string) => void lines.push(line) },
      metricsToken: METRICS_TOKEN,
      readiness: { maxLagEvents: MAX_LAG_EVENTS, maxLagSeconds: 60 },
      callbacks: { retryScheduleMs: [0, 200, 200], requestTimeoutMs: 1_000, leaseMs: 3_000, pollIntervalMs: 100 },
    });
    await app.provision(callbackBootstrap(receiver.base));
    await app.provision(issueBootstrap());
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

  async function scrape(): Promise<Sample[]> {
    const response = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(await response.text());
  }

  /** An H2H deposit under the given request id; answers the transaction's UUID. */
  async function deposit(externalId: string, requestId?: string): Promise<string> {
    const body = h2hRequest(CB_KEYS.h2h, externalId, 120);
    sentHashes.push(body.hash);
    const response = await fetch(`${app.baseUrl}/deposit/bank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(201);
    if (requestId) expect(response.headers.get('x-request-id')).toBe(requestId);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': CB_KEYS.h2h.apiKey, 'x-api-secret': CB_KEYS.h2h.apiSecret },
    );
    expect(status.status).toBe(201);
    return String(status.body.uuid);
  }

  async function approve(uuid: string): Promise<void> {
    const res = await client.post('/panel/deposit/approve', { id: uuid }, admin);
    expect(res.status).toBe(201);
  }

  const parsedLines = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('answers /metrics only with the bearer token when METRICS_TOKEN is set', async () => {
    expect((await fetch(`${app.baseUrl}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ success: false, errorCode: 'invalid_credentials' });
    await scrape();
  });

  it('counts the deposit, the approval and the callback in /metrics', async () => {
    await app.settle();
    const before = await scrape();
    const externalId = ext('OBS-M');
    const uuid = await deposit(externalId);
    await approve(uuid);
    await receiver.waitFor(() => receiver.at('/cb-h2h/deposit').find((r) => r.body.transactionId === externalId));
    await fetch(`${app.baseUrl}/no-such-path/${externalId}`);
    await app.settle();
    // The dispatcher records the attempt just after the receiver answered.
    let after = await scrape();
    for (let i = 0; i < 50; i++) {
      const attempts = (s: Sample[]) =>
        valueOf(s, 'transfergate_callback_attempts_total', { outcome: 'success', trigger: 'automatic' });
      if (attempts(after) > attempts(before)) break;
      await new Promise((r) => setTimeout(r, 100));
      after = await scrape();
    }
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);

    const http = 'transfergate_http_request_duration_seconds_count';
    expect(delta(http, { method: 'POST', route: '/deposit/bank', status_class: '2xx' })).toBe(1);
    expect(delta(http, { method: 'POST', route: '/status/:identifier', status_class: '2xx' })).toBe(1);
    expect(delta(http, { method: 'POST', route: '/panel/deposit/approve', status_class: '2xx' })).toBe(1);
    expect(delta(http, { method: 'GET', route: 'unmatched', status_class: '4xx' })).toBe(1);
    // Route patterns, never raw URLs: the external id is in no label.
    expect(after.some((s) => Object.values(s.labels).some((v) => v.includes(externalId)))).toBe(false);

    expect(delta('transfergate_transactions', { form: 'h2h', type: 'deposit', state: 'approved' })).toBe(1);
    expect(delta('transfergate_approval_latency_seconds_count', { type: 'deposit' })).toBe(1);
    const latencySum = delta('transfergate_approval_latency_seconds_sum', { type: 'deposit' });
    expect(latencySum).toBeGreaterThanOrEqual(0);
    expect(latencySum).toBeLessThan(60);
    expect(delta('transfergate_callback_attempts_total', { outcome: 'success', trigger: 'automatic' })).toBe(1);
    // Request (txn + claim), approval (txn + merchant ledger): at least two ok appends.
    expect(delta('transfergate_event_store_append_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThanOrEqual(
      2,
    );

    for (const consumer of ['ledger-read-models', 'callback-dispatcher']) {
      for (const name of ['transfergate_subscription_lag_events', 'transfergate_subscription_lag_seconds']) {
        expect(after.filter((s) => s.name === name && s.labels.consumer === consumer)).toHaveLength(1);
      }
    }
    expect(valueOf(after, 'transfergate_subscription_lag_events', { consumer: 'ledger-read-models' })).toBe(0);
    expect(valueOf(after, 'transfergate_subscription_lag_seconds', { consumer: 'ledger-read-models' })).toBe(0);
  });

  it('shows callbacks failing per merchant (retrying, then failed), logs each failed attempt once at warn naming whose it was, and the oldest open deposit', async () => {
    await app.settle();
    const before = await scrape();
    // An open deposit: its age is the oldest open one (every earlier deposit of this suite is decided).
    await deposit(ext('OBS-OPEN'));
    await new Promise((r) => setTimeout(r, 1_100));
    const open = await scrape();
    expect(valueOf(open, 'transfergate_oldest_open_deposit_age_seconds')).toBeGreaterThanOrEqual(1);
    expect(valueOf(open, 'transfergate_oldest_open_deposit_age_seconds')).toBeLessThan(600);

    // Every attempt of the next deposit callback fails (three attempts on this suite's schedule).
    const fail = (_: unknown, res: import('node:http').ServerResponse) => res.writeHead(500).end('down');
    receiver.script('/cb-h2h/deposit', fail, fail, fail);
    const externalId = ext('OBS-FAIL');
    await approve(await deposit(externalId));
    let after = before;
    for (let i = 0; i < 100; i++) {
      after = await scrape();
      if (
        valueOf(after, 'transfergate_callbacks_failing', { state: 'failed' }) >
        valueOf(before, 'transfergate_callbacks_failing', { state: 'failed' })
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(
      valueOf(after, 'transfergate_callbacks_failing', { state: 'failed', merchant: 'Callbacks' }) -
        valueOf(before, 'transfergate_callbacks_failing', { state: 'failed', merchant: 'Callbacks' }),
    ).toBe(1);
    expect(valueOf(after, 'transfergate_callbacks_failing', { state: 'retrying', merchant: 'Callbacks' })).toBe(0);
    // Every series names its merchant.
    const failing = after.filter((s) => s.name === 'transfergate_callbacks_failing');
    expect(failing.length).toBeGreaterThan(0);
    for (const series of failing) expect(Object.keys(series.labels).sort()).toEqual(['merchant', 'state']);
    // Each failed attempt is one line, at warn, naming the merchant, the infrastructure, the
    // merchant's transaction id and the target host (never the URL: it may carry a token).
    const ours = parsedLines().filter((line) => line.merchantTransactionId === externalId);
    expect(ours).toHaveLength(3);
    for (const line of ours) {
      expect(line).toMatchObject({
        level: 'warn',
        msg: 'callback attempt failed',
        merchant: 'Callbacks',
        infrastructure: 'Callbacks cb-h2h',
        merchantTransactionId: externalId,
        targetHost: new URL(receiver.base).host,
      });
      expect(JSON.stringify(line)).not.toContain('/cb-h2h/deposit');
    }
    expect(ours.at(-1)).toMatchObject({ statusCode: 500, error: 'HTTP 500', next: 'failed' });
    expect(ours.map((line) => line.attempt)).toEqual([1, 2, 3]);
    // No info line besides: the info 'callback attempt' lines are the successful ones only.
    const deliveryIds = new Set(ours.map((line) => line.deliveryId));
    expect(deliveryIds.size).toBe(1);
    const infoForIt = parsedLines().filter(
      (line) => line.msg === 'callback attempt' && deliveryIds.has(line.deliveryId as string),
    );
    expect(infoForIt).toEqual([]);
  });

  it('keeps the request id of a deposit through the ledger, the projection, the dispatcher and the callback', async () => {
    const requestId = `obs-${engine}-${randomBytes(6).toString('hex')}`;
    const externalId = ext('OBS-R');
    const uuid = await deposit(externalId, requestId);
    await approve(uuid);
    const callback = await receiver.waitFor(() =>
      receiver.at('/cb-h2h/deposit').find((r) => r.body.transactionId === externalId),
    );
    expect(callback.headers['x-request-id']).toBe(requestId);
    await app.settle();

    const ours = () => parsedLines().filter((line) => line.requestId === requestId);
    for (let i = 0; i < 50 && !ours().some((l) => l.msg === 'callback attempt'); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const mine = ours();
    const stream = `txn-${uuid}`;
    expect(mine.find((l) => l.context === 'Http' && l.route === '/deposit/bank')).toMatchObject({
      service: 'all-in-one',
      level: 'info',
      msg: 'request completed',
      method: 'POST',
      statusCode: 201,
    });
    expect(mine.find((l) => l.context === 'LedgerEvents' && l.streamId === stream)).toMatchObject({
      msg: 'events appended',
      events: ['DepositRequested'],
    });
    expect(mine.find((l) => l.context === 'LedgerProjection' && l.streamId === stream)).toMatchObject({
      msg: 'event projected',
      type: 'DepositRequested',
    });
    expect(mine.find((l) => l.context === 'CallbackDispatcher')).toMatchObject({
      msg: 'callback attempt',
      transactionId: uuid,
      outcome: 'success',
      statusCode: 200,
    });
  });

  it("stamps each request's own id on the events it appends, also when their appends share a group", async () => {
    const tag = `${engine}-${randomBytes(4).toString('hex')}`;
    // Concurrent deposits: the store writes them in shared groups, each event keeps its own id.
    const uuids = await Promise.all(Array.from({ length: 6 }, (_, i) => deposit(ext(`OBS-S${i}`), `dep-${tag}-${i}`)));
    const approvalId = `approve-${tag}`;
    const approved = await fetch(`${app.baseUrl}/panel/deposit/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, 'x-request-id': approvalId },
      body: JSON.stringify({ id: uuids[0] }),
    });
    expect(approved.status).toBe(201);
    const stamped = async (uuid: string) =>
      (
        await app.db.query<{ type: string; request_id: string | null }>(
          `select type, metadata->>'requestId' as request_id from es_events
            where stream_id = $1 and type in ('DepositRequested', 'TransactionApproved') order by stream_version`,
          [`txn-${uuid}`],
        )
      ).rows;
    for (const [i, uuid] of uuids.entries()) {
      const expected = [{ type: 'DepositRequested', request_id: `dep-${tag}-${i}` }];
      if (i === 0) expected.push({ type: 'TransactionApproved', request_id: approvalId });
      expect(await stamped(uuid)).toEqual(expected);
    }
  });

  it('replaces an unusable x-request-id with a generated one', async () => {
    for (const bad of ['has spaces in it', 'x'.repeat(200), 'quote"and\\slash']) {
      const response = await fetch(`${app.baseUrl}/`, { headers: { 'x-request-id': bad } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const good = await fetch(`${app.baseUrl}/`, { headers: { 'x-request-id': 'abc-123:def' } });
    expect(good.headers.get('x-request-id')).toBe('abc-123:def');
  });

  it('is not ready while a consumer is held back, and ready again once it catches up', async () => {
    await app.settle();
    // settle() waits for the projection only: the dispatcher reads at most every 100 ms while events
    // keep coming, so right after the tests before this one it may still be a few events behind.
    let ready = await fetch(`${app.baseUrl}/ready`);
    const waitStartedMs = Date.now();
    while (ready.status !== 200 && Date.now() - waitStartedMs < 20_000) {
      await ready.arrayBuffer();
      await new Promise((r) => setTimeout(r, 200));
      ready = await fetch(`${app.baseUrl}/ready`);
    }
    const readyBody = (await ready.json()) as { status: string; consumers: Array<{ consumer: string }> };
    expect(ready.status).toBe(200);
    expect(readyBody.status).toBe('ready');
    expect(readyBody.consumers.map((c) => c.consumer)).toEqual(
      expect.arrayContaining(['ledger-read-models', 'callback-dispatcher']),
    );

    // Another owner takes the dispatcher consumer's lease: it can no longer save a checkpoint.
    await app.db.query(
      `update es_checkpoints set lease_owner = 'held-by-test', lease_until = now() + interval '1 hour'
       where consumer = 'callback-dispatcher'`,
    );
    try {
      for (let i = 0; i <= MAX_LAG_EVENTS; i++) await deposit(ext('OBS-LAG'));
      await app.settle();
      const held = await fetch(`${app.baseUrl}/ready`);
      expect(held.status).toBe(503);
      const body = (await held.json()) as {
        success: boolean;
        errorCode: string;
        message: string;
        details: { consumers: Array<{ consumer: string; lagEvents: number }> };
      };
      expect(body).toMatchObject({ success: false, errorCode: 'unavailable' });
      expect(body.message).toContain('callback-dispatcher');
      expect(body.message).not.toContain('ledger-read-models');
      const dispatcher = body.details.consumers.find((c) => c.consumer === 'callback-dispatcher');
      expect(dispatcher!.lagEvents).toBeGreaterThan(MAX_LAG_EVENTS);
      const scraped = await scrape();
      expect(valueOf(scraped, 'transfergate_subscription_lag_events', { consumer: 'callback-dispatcher' })).toBe(
        dispatcher!.lagEvents,
      );
      expect(
        valueOf(scraped, 'transfergate_subscription_lag_seconds', { consumer: 'callback-dispatcher' }),
      ).toBeGreaterThan(0);
      expect(valueOf(scraped, 'transfergate_subscription_lag_events', { consumer: 'ledger-read-models' })).toBe(0);
      // Liveness is unaffected.
      expect((await fetch(`${app.baseUrl}/`)).status).toBe(200);
    } finally {
      await app.db.query(
        `update es_checkpoints set lease_owner = null, lease_until = null where consumer = 'callback-dispatcher'`,
      );
    }
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await fetch(`${app.baseUrl}/ready`)).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });

  it('writes JSON lines only, and never a secret', async () => {
    // Credentials in a query string, a header and a body, on refused requests.
    await fetch(
      `${app.baseUrl}/deposits/deposit-request?ApiKey=leaked-query-key&SecurityKey=leaked-security-key&OperationGuid=g&RequestId=r&Amount=10`,
    );
    await postJson(
      `${app.baseUrl}/status/x`,
      {},
      { 'x-api-key': 'leaked-header-key', 'x-api-secret': 'leaked-header' },
    );
    await postJson(`${app.baseUrl}/api/auth/login`, { username: 'admin', password: 'leaked-wrong-password' });
    // A GET Infrastructure deposit that succeeds: its real SecurityKey travels in the query string.
    const infra = infraRequest(ext('OBS-Q'), 60, { CustomerFullName: 'Ali Veli' });
    const query = new URLSearchParams(Object.entries(infra).map(([k, v]): [string, string] => [k, String(v)]));
    expect((await fetch(`${app.baseUrl}/deposits/deposit-request?${query}`)).status).toBe(200);
    sentHashes.push(String(infra.SecurityKey));
    // A line that tries to log secrets goes through the same logger as every service's lines.
    app.observability.logger.info(
      {
        headers: { authorization: 'Bearer leaked-bearer', 'x-api-key': 'leaked-key', 'x-api-secret': 'leaked-secret' },
        body: { password: 'leaked-password', hash: 'leaked-hash', apiSecret: 'leaked-api-secret' },
      },
      'redaction probe',
    );
    const all = parsedLines();
    expect(all.length).toBeGreaterThan(20);
    const probe = all.find((l) => l.msg === 'redaction probe') as {
      headers: Record<string, string>;
      body: Record<string, string>;
    };
    expect(probe.headers).toStrictEqual({
      authorization: '[redacted]',
      'x-api-key': '[redacted]',
      'x-api-secret': '[redacted]',
    });
    expect(probe.body).toStrictEqual({ password: '[redacted]', hash: '[redacted]', apiSecret: '[redacted]' });
    const text = lines.join('');
    expect(sentHashes.length).toBeGreaterThan(3);
    for (const secret of ['leaked-', 'S3cure-pass!', admin, CB_KEYS.h2h.apiSecret, ...sentHashes]) {
      expect(text).not.toContain(secret);
    }
  });
});
