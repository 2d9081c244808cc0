import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { issueBootstrap, postJson, startTestApp, type Engine } from '../support/test-app.js';
import { panelClient } from '../panel/panel-client.js';
import {
  CB_IBAN,
  CallbackReceiver,
  callbackBootstrap,
  expectedWebhookSignature,
  h2hRequest,
  type ReceivedCallback,
} from './callback-fixture.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/**
 * The app the outgoing-callback suites share, on `engine`: a callback receiver on loopback, a short
 * retry schedule (0, 200, 200, 200 ms) and request timeout (300 ms), the callback and issue
 * bootstraps, an auditor (auditor1), the admin signed in, and the helpers that create, decide and
 * read back transactions and their callbacks. Each suite starts its own and stops it (and the
 * receiver) in its afterAll.
 */
export async function startCallbacksApp(engine: Engine) {
  let n = 0;
  const ext = (prefix: string) => `${prefix}-${engine}-${++n}-${Date.now()}`;
  const receiver = await new CallbackReceiver().start();
  const app = await startTestApp(engine, {
    callbacks: { retryScheduleMs: [0, 200, 200, 200], requestTimeoutMs: 300, leaseMs: 3_000, pollIntervalMs: 100 },
  });
  await app.provision(callbackBootstrap(receiver.base));
  await app.provision(issueBootstrap());
  await app.commands.execute(
    new ConfigureOperatorCommand(
      { username: 'auditor1', password: 'Initial-pass-1', role: 'auditor', active: true },
      { source: 'test' },
    ),
  );
  await app.settle();
  const client = panelClient(app);
  const admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
  const adminId = (await client.get('/api/auth/me', admin)).body.id;

  const creds = (key: { apiKey: string; apiSecret: string }) => ({
    'x-api-key': key.apiKey,
    'x-api-secret': key.apiSecret,
  });

  /** The transaction's internal UUID and integer number, by the caller's id. */
  async function numberOf(
    key: { apiKey: string; apiSecret: string },
    externalId: string,
  ): Promise<{ uuid: string; number: number }> {
    const status = await postJson(`${app.baseUrl}/status/${externalId}`, {}, creds(key));
    expect(status.status).toBe(201);
    return { uuid: String(status.body.uuid), number: Number(status.body.id) };
  }

  async function decide(
    kind: 'deposit' | 'withdrawal',
    transaction: { uuid: string },
    outcome: 'approve' | 'reject',
    reason = 'IBAN holder name does not match',
  ) {
    // By UUID: the ledger reads the stream itself (a number goes through the read model, which may lag).
    const id = transaction.uuid;
    const res = await client.post(`/panel/${kind}/${outcome}`, outcome === 'reject' ? { id, reason } : { id }, admin);
    if (res.status !== 201) throw new Error(`${kind} ${outcome} ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function h2h(
    kind: 'deposit' | 'withdrawal',
    key: { apiKey: string; apiSecret: string },
    id: string,
    amount: number,
  ) {
    const path = kind === 'deposit' ? '/deposit/bank' : '/withdrawal/bank';
    const res = await postJson(`${app.baseUrl}${path}`, {
      ...h2hRequest(key, id, amount),
      ...(kind === 'withdrawal' ? { iban: CB_IBAN } : {}),
    });
    expect(res.status).toBe(201);
    return numberOf(key, id);
  }

  const callbackFor = (path: string, externalId: string) =>
    receiver.waitFor(
      () => receiver.at(path).find((r) => r.body.transactionId === externalId || r.body.RequestId === externalId),
      15_000,
      `a callback at ${path} for ${externalId}`,
    );

  function expectSigned(record: ReceivedCallback, secret: string) {
    expect(record.headers['content-type']).toBe('application/json');
    const id = String(record.headers['webhook-id']);
    const timestamp = String(record.headers['webhook-timestamp']);
    expect(id).toMatch(UUID);
    expect(timestamp).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(record.headers['webhook-signature']).toBe(expectedWebhookSignature(secret, id, timestamp, record.raw));
  }

  async function delivery(externalId: string) {
    const list = await client.get(`/panel/callbacks?transactionId=${encodeURIComponent(externalId)}`, admin);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    const detail = await client.get(`/panel/callbacks/${list.body.items[0].id}`, admin);
    expect(detail.status).toBe(200);
    return detail.body;
  }

  async function waitForState(externalId: string, state: string, minAttempts = 1) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const list = await client.get(`/panel/callbacks?transactionId=${encodeURIComponent(externalId)}`, admin);
      const item = list.body.items?.[0];
      if (item?.state === state && item.attemptCount >= minAttempts) return delivery(externalId);
      if (Date.now() > deadline) throw new Error(`callback of ${externalId} not ${state}: ${JSON.stringify(item)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  return {
    app,
    receiver,
    client,
    admin,
    adminId,
    ext,
    creds,
    numberOf,
    decide,
    h2h,
    callbackFor,
    expectSigned,
    delivery,
    waitForState,
  };
}
export type CallbacksApp = Awaited<ReturnType<typeof startCallbacksApp>>;
