import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { ENGINES, issueBootstrap, postJson, startTestApp, type Engine, type TestApp } from '../support/test-app.js';
import { panelClient } from '../panel/panel-client.js';
import {
  CB_IBAN,
  CB_KEYS,
  CallbackReceiver,
  answers,
  callbackBootstrap,
  expectedWebhookSignature,
  h2hRequest,
  infraRequest,
  md5,
  type ReceivedCallback,
} from './callback-fixture.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Outgoing callbacks end to end over real HTTP: transactions created through the gateway, decided
 * through the panel, callbacks received by a real HTTP server on loopback. Short retry schedule
 * (0, 200, 200, 200 ms) and request timeout (300 ms) through the runtime's callback settings.
 */
describe.each(ENGINES)('outgoing callbacks (%s)', (engine: Engine) => {
  let app: TestApp;
  let receiver: CallbackReceiver;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let adminId: string;
  let n = 0;
  const ext = (prefix: string) => `${prefix}-${engine}-${++n}-${Date.now()}`;

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    app = await startTestApp(engine, {
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
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    adminId = (await client.get('/api/auth/me', admin)).body.id;
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

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

  it('Merchant API: confirm and cancel bodies, exactly the contract keys, Standard Webhooks signed', async () => {
    const dep = ext('CBM-D');
    const created = await postJson(
      `${app.baseUrl}/deposit`,
      { transactionId: dep, amount: 150.5, name: 'Zeynep', surname: 'Kaya', username: 'zeynep' },
      creds(CB_KEYS.merchant),
    );
    expect(created.status).toBe(200);
    await decide('deposit', await numberOf(CB_KEYS.merchant, dep), 'approve');
    const approved = await callbackFor('/cb-merchant/deposit', dep);
    expect(approved.body).toStrictEqual({ transactionId: dep, amount: 150.5, status: 'confirm' });
    expectSigned(approved, CB_KEYS.merchant.apiSecret);

    const wd = ext('CBM-W');
    const requested = await postJson(
      `${app.baseUrl}/withdrawal`,
      { transactionId: wd, amount: 75.25, iban: CB_IBAN, fullname: 'Zeynep Kaya' },
      creds(CB_KEYS.merchant),
    );
    expect(requested.status).toBe(200);
    await decide('withdrawal', await numberOf(CB_KEYS.merchant, wd), 'reject');
    const cancelled = await callbackFor('/cb-merchant/withdrawal', wd);
    expect(cancelled.body).toStrictEqual({ transactionId: wd, amount: 75.25, status: 'cancel' });
    expectSigned(cancelled, CB_KEYS.merchant.apiSecret);
    expect(receiver.at('/cb-merchant/deposit').filter((r) => r.body.transactionId === wd)).toHaveLength(0);
  });

  it('H2H: deposit APPROVED without reason, withdrawal REJECTED with type withdrawal and reason', async () => {
    const dep = ext('CBH-D');
    const depNumber = await h2h('deposit', CB_KEYS.h2h, dep, 1250.5);
    await decide('deposit', depNumber, 'approve');
    const approved = await callbackFor('/cb-h2h/deposit', dep);
    expect(Object.keys(approved.body).sort()).toEqual(
      ['amount', 'depositId', 'metadata', 'status', 'timestamp', 'transactionId', 'type', 'uuid'].sort(),
    );
    expect(approved.body).toMatchObject({
      type: 'deposit',
      transactionId: dep,
      status: 'APPROVED',
      amount: 1250.5,
      depositId: depNumber.number,
      uuid: dep,
    });
    expect(approved.body.metadata).toStrictEqual({ userID: '', username: '', senderName: 'Ayşe Yılmaz' });
    expect(String(approved.body.timestamp)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Math.abs(Date.parse(String(approved.body.timestamp)) - Date.now())).toBeLessThan(60_000);
    expectSigned(approved, CB_KEYS.h2h.apiSecret);

    const wd = ext('CBH-W');
    const wdNumber = await h2h('withdrawal', CB_KEYS.h2h, wd, 100);
    await decide('withdrawal', wdNumber, 'reject', 'IBAN holder name does not match');
    const rejected = await callbackFor('/cb-h2h/withdrawal', wd);
    expect(Object.keys(rejected.body).sort()).toEqual(
      ['amount', 'depositId', 'metadata', 'reason', 'status', 'timestamp', 'transactionId', 'type', 'uuid'].sort(),
    );
    expect(rejected.body).toMatchObject({
      type: 'withdrawal',
      transactionId: wd,
      status: 'REJECTED',
      amount: 100,
      depositId: wdNumber.number,
      uuid: wd,
      reason: 'IBAN holder name does not match',
    });
    expectSigned(rejected, CB_KEYS.h2h.apiSecret);
  });

  it('H2H: the customer fields of the request (any usual spelling) reach the callback metadata', async () => {
    const dep = ext('CBH-M');
    const created = await postJson(`${app.baseUrl}/deposit/bank`, {
      ...h2hRequest(CB_KEYS.h2h, dep, 300),
      user_id: 'U-4711',
      userName: 'ayse.y',
      sender_name: 'Mehmet Yılmaz',
    });
    expect(created.status).toBe(201);
    await decide('deposit', await numberOf(CB_KEYS.h2h, dep), 'approve');
    const approved = await callbackFor('/cb-h2h/deposit', dep);
    expect(approved.body.metadata).toStrictEqual({ userID: 'U-4711', username: 'ayse.y', senderName: 'Mehmet Yılmaz' });

    const wd = ext('CBH-MW');
    const createdWd = await postJson(`${app.baseUrl}/withdrawal/bank`, {
      ...h2hRequest(CB_KEYS.h2h, wd, 50),
      iban: CB_IBAN,
      userID: '99',
      username: 'mehmet',
    });
    expect(createdWd.status).toBe(201);
    await decide('withdrawal', await numberOf(CB_KEYS.h2h, wd), 'reject');
    const rejected = await callbackFor('/cb-h2h/withdrawal', wd);
    expect(rejected.body.metadata).toStrictEqual({ userID: '99', username: 'mehmet', senderName: 'Ayşe Yılmaz' });

    // Two spellings of one field that disagree are refused in the H2H shape; a repeat is still idempotent.
    const conflicting = await postJson(`${app.baseUrl}/deposit/bank`, {
      ...h2hRequest(CB_KEYS.h2h, ext('CBH-MX'), 300),
      user_id: 'A',
      userId: 'B',
    });
    expect(conflicting).toMatchObject({ status: 400, body: { status: false, errorCode: 'validation_failed' } });
    const repeat = await postJson(`${app.baseUrl}/deposit/bank`, {
      ...h2hRequest(CB_KEYS.h2h, dep, 300),
      user_id: 'U-4711',
      userName: 'ayse.y',
      sender_name: 'Mehmet Yılmaz',
    });
    expect(repeat.status).toBe(201);
  });

  it('Infrastructure: PascalCase, SecurityKey and OperationGuid echoed from the request, CustomerMemberId', async () => {
    const dep = ext('CBI-D');
    const request = infraRequest(dep, 200, { CustomerFullName: 'Mehmet Demir', CustomerMemberId: 'M-77' });
    const created = await postJson(`${app.baseUrl}/deposits/deposit-request`, request);
    expect(created.status).toBe(200);
    await decide('deposit', await numberOf(CB_KEYS.infra, dep), 'approve');
    const approved = await callbackFor('/cb-infra/deposit', dep);
    expect(approved.body).toStrictEqual({
      CustomerFullName: 'Mehmet Demir',
      Amount: 200,
      CustomerMemberId: 'M-77',
      RequestId: dep,
      SecurityKey: request.SecurityKey,
      Status: true,
      Message: 'confirmed',
      OperationGuidBack: request.OperationGuid,
    });
    expectSigned(approved, CB_KEYS.infra.apiSecret);

    const wd = ext('CBI-W');
    const wdRequest = infraRequest(wd, 90.1, { CustomerFullName: 'Mehmet Demir', AccountNumber: CB_IBAN });
    expect((await postJson(`${app.baseUrl}/withdraws/withdraw-request`, wdRequest)).status).toBe(200);
    await decide('withdrawal', await numberOf(CB_KEYS.infra, wd), 'reject');
    const declined = await callbackFor('/cb-infra/withdrawal', wd);
    expect(declined.body).toStrictEqual({
      CustomerFullName: 'Mehmet Demir',
      Amount: 90.1,
      CustomerMemberId: '',
      RequestId: wd,
      SecurityKey: wdRequest.SecurityKey,
      Status: false,
      Message: 'declined',
      OperationGuidBack: wdRequest.OperationGuid,
    });
    expectSigned(declined, CB_KEYS.infra.apiSecret);
  });

  it('MD5 variant: signature = MD5(transactionId + status + amount + type + apiSecret), verified independently', async () => {
    const dep = ext('CB5-D');
    await decide('deposit', await h2h('deposit', CB_KEYS.md5, dep, 250), 'approve');
    const approved = await callbackFor('/cb-md5/deposit', dep);
    expect(Object.keys(approved.body).sort()).toEqual(['amount', 'signature', 'status', 'transactionId', 'type']);
    expect(approved.body).toMatchObject({ transactionId: dep, amount: 250, status: 'confirmed', type: 'deposit' });
    expect(approved.body.signature).toBe(md5(`${dep}confirmed250deposit${CB_KEYS.md5.apiSecret}`));
    expectSigned(approved, CB_KEYS.md5.apiSecret);

    const wd = ext('CB5-W');
    await decide('withdrawal', await h2h('withdrawal', CB_KEYS.md5, wd, 99.9), 'reject');
    const declined = await callbackFor('/cb-md5/withdrawal', wd);
    expect(declined.body).toMatchObject({ transactionId: wd, amount: 99.9, status: 'declined', type: 'withdrawal' });
    expect(declined.body.signature).toBe(md5(`${wd}declined99.9withdrawal${CB_KEYS.md5.apiSecret}`));
    expectSigned(declined, CB_KEYS.md5.apiSecret);
  });

  it('decisions at once across the four formats: each callback carries its own transaction, one delivery each', async () => {
    // The dispatcher enqueues a batch of final events with one read per kind of stream and one
    // insert: a transaction must not pick up another's infrastructure, secret, amount or outcome.
    const created: Array<{ path: string; id: string; amount: number; uuid: string; approve: boolean }> = [];
    const track = async (path: string, id: string, amount: number, approve: boolean, ref: Promise<{ uuid: string }>) =>
      created.push({ path, id, amount, approve, uuid: (await ref).uuid });
    for (let i = 0; i < 2; i++) {
      const approve = i === 0;
      const m = ext('CBB-M');
      const merchantCreated = await postJson(
        `${app.baseUrl}/deposit`,
        { transactionId: m, amount: 101 + i, name: 'Zeynep', surname: 'Kaya', username: 'zeynep' },
        creds(CB_KEYS.merchant),
      );
      expect(merchantCreated.status).toBe(200);
      await track('/cb-merchant/deposit', m, 101 + i, approve, numberOf(CB_KEYS.merchant, m));
      const h = ext('CBB-H');
      await track('/cb-h2h/deposit', h, 203 + i, approve, h2h('deposit', CB_KEYS.h2h, h, 203 + i));
      const f = ext('CBB-I');
      const infraCreated = await postJson(
        `${app.baseUrl}/deposits/deposit-request`,
        infraRequest(f, 305 + i, { CustomerFullName: 'Mehmet Demir' }),
      );
      expect(infraCreated.status).toBe(200);
      await track('/cb-infra/deposit', f, 305 + i, approve, numberOf(CB_KEYS.infra, f));
      const d = ext('CBB-5');
      await track('/cb-md5/deposit', d, 407 + i, approve, h2h('deposit', CB_KEYS.md5, d, 407 + i));
    }
    await Promise.all(created.map((t) => decide('deposit', t, t.approve ? 'approve' : 'reject')));

    for (const t of created) {
      const received = await callbackFor(t.path, t.id);
      const body = received.body;
      switch (t.path) {
        case '/cb-merchant/deposit':
          expect(body).toStrictEqual({
            transactionId: t.id,
            amount: t.amount,
            status: t.approve ? 'confirm' : 'cancel',
          });
          expectSigned(received, CB_KEYS.merchant.apiSecret);
          break;
        case '/cb-h2h/deposit':
          expect(body).toMatchObject({
            transactionId: t.id,
            amount: t.amount,
            status: t.approve ? 'APPROVED' : 'REJECTED',
          });
          expectSigned(received, CB_KEYS.h2h.apiSecret);
          break;
        case '/cb-infra/deposit':
          expect(body).toMatchObject({ RequestId: t.id, Amount: t.amount, Status: t.approve });
          expectSigned(received, CB_KEYS.infra.apiSecret);
          break;
        default: {
          const status = t.approve ? 'confirmed' : 'declined';
          expect(body).toMatchObject({ transactionId: t.id, amount: t.amount, status });
          expect(body.signature).toBe(md5(`${t.id}${status}${t.amount}deposit${CB_KEYS.md5.apiSecret}`));
          expectSigned(received, CB_KEYS.md5.apiSecret);
        }
      }
    }
    const ids = created.map((t) => t.id);
    const { rows } = await app.db.query<{ external_id: string; n: number }>(
      `select external_id, count(*)::int n from cb_deliveries where external_id = any($1::text[]) group by external_id`,
      [ids],
    );
    expect(rows.map((r) => [r.external_id, r.n]).sort()).toEqual(ids.map((id) => [id, 1]).sort());
  });

  it('500, timeout, 302, 200: exactly 4 attempts with one webhook-id, redirect not followed, all in the panel detail', async () => {
    const dep = ext('CBR');
    receiver.script(
      '/cb-h2h/deposit',
      answers.status(500, 'boom'),
      answers.hang(),
      answers.status(302, '', { location: `${receiver.base}/redirected` }),
    );
    await decide('deposit', await h2h('deposit', CB_KEYS.h2h, dep, 300), 'approve');
    const detail = await waitForState(dep, 'delivered');
    const got = receiver.at('/cb-h2h/deposit').filter((r) => r.body.transactionId === dep);
    expect(got).toHaveLength(4);
    expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set([detail.webhookId]));
    expect(new Set(got.map((r) => r.raw)).size).toBe(1);
    for (const record of got) expectSigned(record, CB_KEYS.h2h.apiSecret);
    expect(receiver.at('/redirected')).toHaveLength(0);

    expect(detail).toMatchObject({
      state: 'delivered',
      attemptCount: 4,
      format: 'h2h',
      type: 'deposit',
      outcome: 'approved',
      externalId: dep,
      targetUrl: `${receiver.base}/cb-h2h/deposit`,
      nextAttemptAt: null,
      lastStatusCode: 200,
    });
    expect(detail.body).toMatchObject({ transactionId: dep, status: 'APPROVED' });
    expect(detail.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
      'http_error',
      'timeout',
      'redirect',
      'success',
    ]);
    expect(detail.attempts.map((a: { statusCode: number | null }) => a.statusCode)).toEqual([500, null, 302, 200]);
    expect(detail.attempts.map((a: { number: number }) => a.number)).toEqual([1, 2, 3, 4]);
    expect(detail.attempts[0]).toMatchObject({ trigger: 'automatic', responseExcerpt: 'boom', error: 'HTTP 500' });
    expect(detail.attempts[1].latencyMs).toBeGreaterThanOrEqual(290);
    expect(detail.attempts[3]).toMatchObject({ responseExcerpt: '{"ok":true}', nextAttemptAt: null });
    for (const attempt of detail.attempts) expect(Date.parse(attempt.startedAt)).not.toBeNaN();
    // The retries kept to the schedule: ≥ 200 ms between the end of one attempt and the next.
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(195);
  });

  it('Retry-After on a 429 delays the next attempt at least that long', async () => {
    const dep = ext('CBA');
    receiver.script('/cb-merchant/deposit', answers.status(429, 'slow down', { 'retry-after': '1' }));
    const created = await postJson(
      `${app.baseUrl}/deposit`,
      { transactionId: dep, amount: 20, username: 'ali' },
      creds(CB_KEYS.merchant),
    );
    expect(created.status).toBe(200);
    await decide('deposit', await numberOf(CB_KEYS.merchant, dep), 'approve');
    const detail = await waitForState(dep, 'delivered', 2);
    const got = receiver.at('/cb-merchant/deposit').filter((r) => r.body.transactionId === dep);
    expect(got).toHaveLength(2);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(1_000);
    expect(detail.attempts[0]).toMatchObject({ statusCode: 429, retryAfterMs: 1_000, outcome: 'http_error' });
    expect(
      Date.parse(detail.attempts[0].nextAttemptAt) - Date.parse(detail.attempts[0].startedAt),
    ).toBeGreaterThanOrEqual(1_000);
  });

  it('after the last scheduled attempt the callback is failed; a manual resend delivers it once more', async () => {
    const dep = ext('CBF');
    receiver.script('/cb-h2h/deposit', ...Array.from({ length: 4 }, () => answers.status(503, 'down')));
    await decide('deposit', await h2h('deposit', CB_KEYS.h2h, dep, 40), 'approve');
    const failed = await waitForState(dep, 'failed', 4);
    expect(failed).toMatchObject({ attemptCount: 4, nextAttemptAt: null, lastStatusCode: 503 });
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.at('/cb-h2h/deposit').filter((r) => r.body.transactionId === dep)).toHaveLength(4);

    const listed = await client.get(`/panel/callbacks?state=failed&transactionId=${dep}`, admin);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([failed.id]);

    const resent = await client.post('/panel/callbacks/resend', { id: failed.id }, admin);
    expect(resent.status).toBe(201);
    expect(resent.body).toMatchObject({ id: failed.id, state: expect.stringMatching(/^(pending|delivered)$/) });
    const delivered = await waitForState(dep, 'delivered', 5);
    const got = receiver.at('/cb-h2h/deposit').filter((r) => r.body.transactionId === dep);
    expect(got).toHaveLength(5);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(delivered.attempts[4]).toMatchObject({
      number: 5,
      trigger: 'manual',
      requestedBy: adminId,
      statusCode: 200,
    });
  });

  it('a manual resend of a delivered callback sends it exactly once more, with the same webhook-id and body', async () => {
    const dep = ext('CBS');
    await decide('deposit', await h2h('deposit', CB_KEYS.md5, dep, 60), 'approve');
    const first = await waitForState(dep, 'delivered');
    // By the transaction's number as well as by the delivery id.
    const byNumber = await client.get(`/panel/callbacks/${(await delivery(dep)).transactionNumber}`, admin);
    expect(byNumber.body.id).toBe(first.id);
    const resent = await client.post('/api/panel/callbacks/resend', { id: first.transactionId }, admin);
    expect(resent.status).toBe(201);
    const again = await waitForState(dep, 'delivered', 2);
    await new Promise((r) => setTimeout(r, 300));
    const got = receiver.at('/cb-md5/deposit').filter((r) => r.body.transactionId === dep);
    expect(got).toHaveLength(2);
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    expect(got[1]!.raw).toBe(got[0]!.raw);
    expect(again.attempts.map((a: { trigger: string }) => a.trigger)).toEqual(['automatic', 'manual']);
  });

  it('a resend while an attempt is in flight waits for it, then sends at once as a manual attempt', async () => {
    const dep = ext('CBX');
    receiver.script('/cb-infra/deposit', answers.hang());
    const request = infraRequest(dep, 35, { CustomerFullName: 'Can Öztürk' });
    expect((await postJson(`${app.baseUrl}/deposits/deposit-request`, request)).status).toBe(200);
    await decide('deposit', await numberOf(CB_KEYS.infra, dep), 'approve');
    await callbackFor('/cb-infra/deposit', dep);
    const inFlight = (await client.get(`/panel/callbacks?transactionId=${dep}`, admin)).body.items[0];
    const resent = await client.post('/panel/callbacks/resend', { id: inFlight.id }, admin);
    expect(resent.status).toBe(201);
    const detail = await waitForState(dep, 'delivered', 2);
    expect(detail.attempts.map((a: { outcome: string; trigger: string }) => [a.outcome, a.trigger])).toEqual([
      ['timeout', 'automatic'],
      ['success', 'manual'],
    ]);
    expect(receiver.at('/cb-infra/deposit').filter((r) => r.body.RequestId === dep)).toHaveLength(2);
  });

  it('the panel routes: auth, RBAC, 404s, validation, filters and cursor pages', async () => {
    expect((await client.get('/panel/callbacks')).status).toBe(401);
    expect((await client.post('/api/panel/callbacks/resend', { id: 1 })).status).toBe(401);
    const auditor = (await client.login('auditor1', 'Initial-pass-1')).accessToken;
    const some = await client.get('/panel/callbacks?limit=1', auditor);
    expect(some.status).toBe(200);
    expect((await client.post('/panel/callbacks/resend', { id: some.body.items[0].id }, auditor)).status).toBe(403);
    expect((await client.get('/panel/callbacks/00000000-0000-4000-8000-000000000000', auditor)).status).toBe(404);
    expect((await client.get('/panel/callbacks/not-an-id', admin)).status).toBe(404);
    expect(
      (await client.post('/panel/callbacks/resend', { id: '00000000-0000-4000-8000-000000000000' }, admin)).status,
    ).toBe(404);
    expect((await client.post('/panel/callbacks/resend', { id: 'x' }, admin)).status).toBe(400);
    expect((await client.get('/panel/callbacks?state=nope', admin)).status).toBe(400);
    expect((await client.get('/panel/callbacks?cursor=abc', admin)).status).toBe(400);

    const all = await client.get('/panel/callbacks?limit=200', admin);
    expect(all.status).toBe(200);
    expect(all.body.items.length).toBeGreaterThanOrEqual(10);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof client.get>> = await client.get(
        `/api/panel/callbacks?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        admin,
      );
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.items.map((i: { id: string }) => i.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.body.items.map((i: { id: string }) => i.id));
    const withdrawals = await client.get('/panel/callbacks?type=withdrawal&state=delivered', admin);
    expect(withdrawals.body.items.length).toBeGreaterThanOrEqual(4);
    for (const item of withdrawals.body.items) expect(item).toMatchObject({ type: 'withdrawal', state: 'delivered' });
  });
});
