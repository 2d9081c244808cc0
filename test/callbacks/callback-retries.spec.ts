import { ENGINES, postJson, type Engine, type TestApp } from '../support/test-app.js';
import { CB_KEYS, answers, infraRequest } from './callback-fixture.js';

import { startCallbacksApp, type CallbacksApp } from './callbacks-app.js';

/**
 * Outgoing callbacks end to end over real HTTP: failed attempts retried on the schedule (500,
 * timeout, redirect, Retry-After), a failed callback after its last attempt, and manual resends.
 */
describe.each(ENGINES)('outgoing callbacks (%s): retries and resends', (engine: Engine) => {
  let app: TestApp;
  let receiver: CallbacksApp['receiver'];
  let client: CallbacksApp['client'];
  let admin: CallbacksApp['admin'];
  let adminId: CallbacksApp['adminId'];
  let ext: CallbacksApp['ext'];
  let creds: CallbacksApp['creds'];
  let numberOf: CallbacksApp['numberOf'];
  let decide: CallbacksApp['decide'];
  let h2h: CallbacksApp['h2h'];
  let callbackFor: CallbacksApp['callbackFor'];
  let expectSigned: CallbacksApp['expectSigned'];
  let delivery: CallbacksApp['delivery'];
  let waitForState: CallbacksApp['waitForState'];

  beforeAll(async () => {
    ({
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
    } = await startCallbacksApp(engine));
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
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
});
