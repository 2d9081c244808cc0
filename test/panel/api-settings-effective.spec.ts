import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { panelClient } from './panel-client.js';
import { CB_KEYS, CallbackReceiver, answers, callbackBootstrap, h2hRequest } from '../callbacks/callback-fixture.js';

/**
 * /panel/settings/api shows and keeps what runs: a retry schedule from the environment
 * (CALLBACK_RETRY_SCHEDULE_MS, here 0, 700, 700 ms) is shown, survives saving an unrelated setting,
 * and is the one a failing callback is then retried on (not the 5 s of the default schedule);
 * unknown keys are refused with 400 naming them.
 */
describe('API settings: the effective values, per key (PostgreSQL)', () => {
  let app: TestApp;
  let receiver: CallbackReceiver;
  let client: ReturnType<typeof panelClient>;
  let admin: string;

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    app = await startTestApp('postgres', {
      callbacks: { retryScheduleMs: [0, 700, 700], requestTimeoutMs: 2_000, leaseMs: 4_000, pollIntervalMs: 50 },
    });
    await app.provision(issueBootstrap());
    await app.provision(callbackBootstrap(receiver.base));
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

  it('shows the environment, saves one key without freezing the others, refuses unknown keys', async () => {
    const before = await client.get('/panel/settings/api', admin);
    expect(before.body).toMatchObject({
      callbackRetryScheduleSeconds: [0, 0.7, 0.7],
      depositTtlMinutes: 30,
      payment_page_url: app.baseUrl,
      setByOperator: [],
    });

    const saved = await client.post('/panel/settings/api', { depositTtlMinutes: 45 }, admin);
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({
      changed: true,
      depositTtlMinutes: 45,
      callbackRetryScheduleSeconds: [0, 0.7, 0.7],
      payment_page_url: app.baseUrl,
      setByOperator: ['depositTtlMinutes'],
    });
    const after = await client.get('/panel/settings/api', admin);
    expect(after.body).toMatchObject({ callbackRetryScheduleSeconds: [0, 0.7, 0.7], depositTtlMinutes: 45 });

    const unknown = await client.post('/panel/settings/api', { depositTtlMinutes: 50, retryEverySeconds: 9 }, admin);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ success: false, errorCode: 'validation_failed' });
    expect(JSON.stringify(unknown.body)).toContain('retryEverySeconds');
    expect((await client.get('/panel/settings/api', admin)).body.depositTtlMinutes).toBe(45);

    // The next failing callback is retried on the environment's schedule: 0.7 s, not the default 5 s.
    receiver.script('/cb-h2h/deposit', answers.status(500));
    const externalId = `SET-${Date.now()}`;
    expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hRequest(CB_KEYS.h2h, externalId, 120))).status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': CB_KEYS.h2h.apiKey, 'x-api-secret': CB_KEYS.h2h.apiSecret },
    );
    expect((await client.post('/panel/deposit/approve', { id: status.body.uuid }, admin)).status).toBe(201);
    const attempts = await receiver.waitFor(
      () => {
        const mine = receiver.at('/cb-h2h/deposit').filter((r) => r.body.transactionId === externalId);
        return mine.length >= 2 ? mine : undefined;
      },
      4_000,
      'a retry on the environment schedule',
    );
    expect(attempts[1]!.at - attempts[0]!.at).toBeLessThan(3_000);
  });

  it('an operator-set schedule then wins, and saving another key keeps it', async () => {
    const set = await client.post('/panel/settings/api', { callbackRetryScheduleSeconds: [0, 60] }, admin);
    expect(set.body).toMatchObject({ callbackRetryScheduleSeconds: [0, 60] });
    const other = await client.post('/panel/settings/api', { testAuthEnabled: false }, admin);
    expect(other.body).toMatchObject({
      callbackRetryScheduleSeconds: [0, 60],
      depositTtlMinutes: 45,
      setByOperator: expect.arrayContaining(['depositTtlMinutes', 'callbackRetryScheduleSeconds', 'testAuthEnabled']),
    });
  });
});
