import { ExpireTransactionCommand } from '@transfergate/contracts';
import { type TestApp } from '../support/test-app.js';
import { startWebhookApp, type WebhookApp, WH_KEYS, eventCount, logRows } from './webhook-fixture.js';

/**
 * Incoming webhooks over real HTTP on PostgreSQL, what a webhook does to a transaction: approval and
 * rejection on every path, tolerant statuses, a differing amount, final and expired
 * transactions.
 */
describe('incoming webhooks over HTTP (PostgreSQL): applying a status', () => {
  let app: TestApp;
  let gateway: WebhookApp['gateway'];
  let hook: WebhookApp['hook'];
  let client: WebhookApp['client'];
  let admin: string;
  let deposit: WebhookApp['deposit'];
  let withdrawal: WebhookApp['withdrawal'];

  beforeAll(async () => {
    ({ app, gateway, hook, client, admin, deposit, withdrawal } = await startWebhookApp());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('approves a deposit (status "confirmed") with 201 and the transaction is approved', async () => {
    const d = await deposit();
    const res = await hook('deposit/callback/wh-local', { transactionId: d.externalId, status: 'confirmed' });
    expect(res).toEqual({
      status: 201,
      body: {
        success: true,
        message: 'approved',
        transactionId: d.externalId,
        id: d.number,
        uuid: d.uuid,
        type: 'deposit',
        status: 'approved',
      },
    });
    expect((await gateway.status(WH_KEYS.local, d.externalId)).status).toBe('approved');
    expect(await eventCount(app, d.uuid, 'TransactionApproved')).toBe(1);
    const [row] = await logRows(app, 'transaction_id = $1', [d.uuid]);
    expect(row).toMatchObject({
      outcome: 'applied',
      kind: 'deposit',
      slug: 'wh-local',
      infrastructure_slug: 'wh-local',
      source_ip: '127.0.0.1',
      http_status: 201,
      status_value: 'confirmed',
      body: { transactionId: d.externalId, status: 'confirmed' },
    });
    // The event records the webhook as the actor, with its source IP.
    const { rows } = await app.db.query<{ metadata: Record<string, unknown> }>(
      `select metadata from es_events where stream_id = 'txn-'||$1 and type = 'TransactionApproved'`,
      [d.uuid],
    );
    expect(JSON.stringify(rows[0]!.metadata)).toMatch(/webhook/);
  });

  it('never approves at another amount: a differing amount is refused (422), kept in history and logged', async () => {
    const d = await deposit(); // 100.00 TRY
    const paidMore = await hook('deposit/callback/wh-local', {
      transactionId: d.externalId,
      status: 'approved',
      amount: 999,
    });
    expect(paidMore).toMatchObject({ status: 422, body: { success: false, errorCode: 'amount_mismatch' } });
    expect(String(paidMore.body.message)).toMatch(/999\.00 TRY.*100\.00 TRY/);
    expect((await gateway.status(WH_KEYS.local, d.externalId)).status).toBe('awaiting_payment');
    expect(await eventCount(app, d.uuid, 'TransactionApproved')).toBe(0);
    // The upstream's retry is refused the same way and adds nothing to the history.
    const retried = await hook('deposit/callback/wh-local', {
      transactionId: d.externalId,
      status: 'approved',
      amount: '999.00',
    });
    expect(retried).toMatchObject({ status: 422, body: { errorCode: 'amount_mismatch' } });
    expect(await eventCount(app, d.uuid, 'WebhookAmountMismatched')).toBe(1);
    const [row] = await logRows(app, 'transaction_id = $1', [d.uuid]);
    expect(row).toMatchObject({ outcome: 'refused', error_code: 'amount_mismatch', http_status: 422 });
    expect(row!.reason).toMatch(/999\.00 TRY/);
    // The operator sees it in the transaction's history in the panel.
    const detail = await client.get(`/panel/transactions/${d.uuid}`, admin);
    const mismatch = (detail.body.history as Array<{ type: string; data: Record<string, unknown> }>).find(
      (event) => event.type === 'WebhookAmountMismatched',
    );
    expect(mismatch?.data).toMatchObject({ amountKurus: '10000', paidAmountKurus: '99900' });
    // An unreadable amount approves nothing either (400); the same amount, as a number or a string, approves.
    const unreadable = await hook('deposit/callback/wh-local', {
      transactionId: d.externalId,
      status: 'approved',
      amount: '80,5x',
    });
    expect(unreadable).toMatchObject({ status: 400, body: { errorCode: 'invalid_amount' } });
    const exact = await hook('deposit/callback/wh-local', {
      transactionId: d.externalId,
      status: 'approved',
      Amount: '100.00',
    });
    expect(exact).toMatchObject({ status: 201, body: { status: 'approved' } });
    expect((await gateway.status(WH_KEYS.local, d.externalId)).status).toBe('approved');
    // A rejection carries no paid amount to check.
    const r = await deposit();
    const rejected = await hook('deposit/callback/wh-local', {
      transactionId: r.externalId,
      status: 'rejected',
      amount: 5,
    });
    expect(rejected).toMatchObject({ status: 201, body: { status: 'rejected' } });
  });

  it('rejects a withdrawal with the reason sent, on every withdrawal path, bare and under /api', async () => {
    const w1 = await withdrawal();
    const r1 = await hook('withdraw/callback/wh-local', {
      transaction_id: w1.externalId,
      status: 'REJECTED',
      reason: 'beneficiary account closed',
    });
    expect(r1).toMatchObject({ status: 201, body: { success: true, status: 'rejected', uuid: w1.uuid } });

    // Infrastructure form: Status false, Message declined → the reason is "declined".
    const w2 = await withdrawal();
    const r2 = await hook('api/withdrawal/callback/wh-local', {
      RequestId: w2.externalId,
      Status: false,
      Message: 'declined',
    });
    expect(r2).toMatchObject({ status: 201, body: { status: 'rejected', uuid: w2.uuid } });

    // No reason at all → the default.
    const w3 = await withdrawal();
    expect(
      await hook('api/withdraw/callback/wh-local', { transactionId: w3.externalId, state: 'cancel' }),
    ).toMatchObject({ status: 201, body: { status: 'rejected' } });
    const w4 = await withdrawal();
    expect(
      await hook('withdrawal/callback/wh-local', { transactionId: w4.externalId, result: 'FAILED' }),
    ).toMatchObject({ status: 201, body: { status: 'rejected' } });

    await app.settle();
    const reasons = await app.db.query<{ transaction_id: string; state: string; reason: string }>(
      `select transaction_id::text, state, reason from rm_transactions where transaction_id = any($1::uuid[])`,
      [[w1.uuid, w2.uuid, w3.uuid]],
    );
    const byId = new Map(reasons.rows.map((r) => [r.transaction_id, r]));
    expect(byId.get(w1.uuid)).toMatchObject({ state: 'rejected', reason: 'beneficiary account closed' });
    expect(byId.get(w2.uuid)).toMatchObject({ state: 'rejected', reason: 'declined' });
    expect(byId.get(w3.uuid)).toMatchObject({ state: 'rejected', reason: 'rejected by upstream' });
  });

  it('maps statuses tolerantly: words in any case and booleans', async () => {
    for (const status of ['APPROVED', 'Success', 'confirm', true, ' ok ']) {
      const d = await deposit();
      const res = await hook('deposit/callback/wh-local', { transactionId: d.externalId, status });
      expect({ status, answer: res.status, state: res.body.status }).toEqual({
        status,
        answer: 201,
        state: 'approved',
      });
    }
    for (const status of ['declined', 'CANCEL', 'Rejected', false, 'failed']) {
      const d = await deposit();
      const res = await hook('deposit/callback/wh-local', { transactionId: d.externalId, Status: status });
      expect({ status, answer: res.status, state: res.body.status }).toEqual({
        status,
        answer: 201,
        state: 'rejected',
      });
    }
  });

  it('refuses a status change on a final transaction (422 transaction_final) and leaves it unchanged', async () => {
    const d = await deposit();
    expect((await hook('deposit/callback/wh-local', { transactionId: d.externalId, status: true })).status).toBe(201);
    const change = await hook('deposit/callback/wh-local', { transactionId: d.externalId, status: 'declined' });
    expect(change).toMatchObject({ status: 422, body: { success: false, errorCode: 'transaction_final' } });
    expect(String(change.body.message)).toMatch(/already approved/);
    expect((await gateway.status(WH_KEYS.local, d.externalId)).status).toBe('approved');
    expect(await eventCount(app, d.uuid, 'TransactionRejected')).toBe(0);
    const [row] = await logRows(app, 'transaction_id = $1', [d.uuid]);
    expect(row).toMatchObject({ outcome: 'refused', error_code: 'transaction_final', http_status: 422 });
    expect(row!.reason).toMatch(/already approved/);

    // And the other way round.
    const w = await withdrawal();
    expect((await hook('withdraw/callback/wh-local', { transactionId: w.externalId, status: 'cancel' })).status).toBe(
      201,
    );
    expect(await hook('withdraw/callback/wh-local', { transactionId: w.externalId, status: 'approved' })).toMatchObject(
      {
        status: 422,
        body: { errorCode: 'transaction_final' },
      },
    );
    expect((await gateway.status(WH_KEYS.local, w.externalId)).status).toBe('rejected');
  });

  it('does not approve an expired deposit (an operator decides), but may reject it', async () => {
    const d = await deposit();
    await app.commands.execute(
      new ExpireTransactionCommand({ transactionId: d.uuid, now: new Date(Date.now() + 24 * 3600_000) }),
    );
    const approve = await hook('deposit/callback/wh-local', { transactionId: d.externalId, status: 'approved' });
    expect(approve).toMatchObject({ status: 422, body: { errorCode: 'invalid_state_transition' } });
    expect(String(approve.body.message)).toMatch(/expired/);
    expect((await gateway.status(WH_KEYS.local, d.externalId)).status).toBe('expired');
    expect(await hook('deposit/callback/wh-local', { transactionId: d.externalId, status: 'declined' })).toMatchObject({
      status: 201,
      body: { status: 'rejected' },
    });
  });
});
