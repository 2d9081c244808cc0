import { ENGINES, postJson, type Engine, type TestApp } from '../support/test-app.js';
import { CB_IBAN, CB_KEYS, h2hRequest, infraRequest, md5 } from './callback-fixture.js';

import { startCallbacksApp, type CallbacksApp } from './callbacks-app.js';

/**
 * Outgoing callbacks end to end over real HTTP: transactions created through the gateway, decided
 * through the panel, callbacks received by a real HTTP server on loopback; the body and signature of
 * each form, and the panel's callback routes (whose listing reads the callbacks the tests above sent,
 * so they stay in this file).
 */
describe.each(ENGINES)('outgoing callbacks (%s): the bodies of each form and the panel', (engine: Engine) => {
  let app: TestApp;
  let receiver: CallbacksApp['receiver'];
  let client: CallbacksApp['client'];
  let admin: CallbacksApp['admin'];
  let ext: CallbacksApp['ext'];
  let creds: CallbacksApp['creds'];
  let numberOf: CallbacksApp['numberOf'];
  let decide: CallbacksApp['decide'];
  let h2h: CallbacksApp['h2h'];
  let callbackFor: CallbacksApp['callbackFor'];
  let expectSigned: CallbacksApp['expectSigned'];

  beforeAll(async () => {
    ({ app, receiver, client, admin, ext, creds, numberOf, decide, h2h, callbackFor, expectSigned } =
      await startCallbacksApp(engine));
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

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
