import { h2hBody } from '../gateway/conformance-fixture.js';
import { postJson, type TestApp } from '../support/test-app.js';
import { startWebhookApp, type WebhookApp, WH_KEYS, ext, type Created } from './webhook-fixture.js';

/**
 * Incoming webhooks over real HTTP on PostgreSQL: the id fields of every form find the transaction;
 * conflicting or ambiguous ids are refused and other infrastructures are never searched.
 */
describe('incoming webhooks over HTTP (PostgreSQL): finding the transaction', () => {
  let app: TestApp;
  let gateway: WebhookApp['gateway'];
  let hook: WebhookApp['hook'];
  let deposit: WebhookApp['deposit'];
  let withdrawal: WebhookApp['withdrawal'];

  beforeAll(async () => {
    ({ app, gateway, hook, deposit, withdrawal } = await startWebhookApp());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('finds the transaction by every id field of the forms', async () => {
    const cases: [string, (c: Created) => Record<string, unknown>][] = [
      ['transactionId', (c) => ({ transactionId: c.externalId })],
      ['transaction_id', (c) => ({ transaction_id: c.externalId })],
      ['RequestId', (c) => ({ RequestId: c.externalId })],
      ['requestId', (c) => ({ requestId: c.externalId })],
      ['depositId (number)', (c) => ({ depositId: c.number })],
      ['depositId (digit string)', (c) => ({ depositId: String(c.number) })],
      ['id (number)', (c) => ({ id: c.number })],
      ['id (uuid)', (c) => ({ id: c.uuid })],
      ['id (transaction id, as the H2H deposit answer has it)', (c) => ({ id: c.externalId })],
      ['uuid', (c) => ({ uuid: c.uuid })],
      ['uuid (upper case)', (c) => ({ uuid: c.uuid.toUpperCase() })],
      ['uuid (transaction id, as the H2H callback has it)', (c) => ({ uuid: c.externalId })],
      [
        'H2H callback body',
        (c) => ({ type: 'deposit', transactionId: c.externalId, depositId: c.number, uuid: c.externalId }),
      ],
    ];
    for (const [name, ids] of cases) {
      const d = await deposit(WH_KEYS.local, ext('ID'));
      const res = await hook('deposit/callback/wh-local', { ...ids(d), status: 'APPROVED' });
      expect({ name, status: res.status, uuid: res.body.uuid }).toEqual({ name, status: 201, uuid: d.uuid });
    }
    const w = await withdrawal();
    expect(await hook('withdraw/callback/wh-local', { withdrawalId: w.number, status: 'approved' })).toMatchObject({
      status: 201,
      body: { uuid: w.uuid },
    });
  });

  it('never guesses: conflicting or ambiguous ids are refused, other infrastructures are not searched', async () => {
    const a = await deposit();
    const b = await deposit();
    const conflict = await hook('deposit/callback/wh-local', {
      transactionId: a.externalId,
      depositId: b.number,
      status: 'approved',
    });
    expect(conflict).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    expect(String(conflict.body.message)).toMatch(/different transactions/);

    // The same external id at two providers of wh-local.
    const shared = ext('SHARED');
    const one = await deposit(WH_KEYS.local, shared);
    const two = await deposit(WH_KEYS.local2, shared);
    const ambiguous = await hook('deposit/callback/wh-local', { transactionId: shared, status: 'approved' });
    expect(ambiguous).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    expect(String(ambiguous.body.message)).toMatch(/2 transactions/);
    // Together with the uuid the fields agree on one.
    expect(
      await hook('deposit/callback/wh-local', { transactionId: shared, uuid: two.uuid, status: 'approved' }),
    ).toMatchObject({ status: 201, body: { uuid: two.uuid } });
    expect((await gateway.status(WH_KEYS.local, shared)).status).toBe('awaiting_payment');
    expect(one.uuid).not.toBe(two.uuid);

    // A transaction of another infrastructure (acme) is not found through wh-local.
    const acmeId = ext('ACME');
    expect(
      (
        await postJson(
          `${app.baseUrl}/deposit/bank`,
          h2hBody({ apiKey: 'ak_test_1', apiSecret: 'sk_test_1' }, acmeId, 100),
        )
      ).status,
    ).toBe(201);
    await app.settle();
    const foreign = await hook('deposit/callback/wh-local', { transactionId: acmeId, status: 'approved' });
    expect(foreign).toMatchObject({ status: 404, body: { success: false, errorCode: 'transaction_not_found' } });
  });
});
