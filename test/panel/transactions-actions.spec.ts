import { ExpireTransactionCommand, PanelTransactionSchema } from '@transfergate/contracts';
import { checkLedgerInvariants } from '@transfergate/ledger';
import { VALID_IBAN } from '../gateway/conformance-fixture.js';
import { type TestApp } from '../support/test-app.js';
import { startTransactionsApp, type TransactionsApp } from './transactions-fixture.js';

/**
 * The panel's transaction actions over real HTTP on PostgreSQL, each one ledger command with the
 * operator as actor: approve, reject, assign, update-amount, races decided by the ledger, the kind
 * of each route and the expired-deposit permission.
 */
describe('panel transactions over HTTP (PostgreSQL): actions and races', () => {
  let app: TestApp;
  let client: TransactionsApp['client'];
  let admin: TransactionsApp['admin'];
  let adminId: TransactionsApp['adminId'];
  let clerk: TransactionsApp['clerk'];
  let clerkId: TransactionsApp['clerkId'];
  let merchantId: TransactionsApp['merchantId'];
  let h2hProviderId: TransactionsApp['h2hProviderId'];
  let gatewayDeposit: TransactionsApp['gatewayDeposit'];
  let gatewayWithdrawal: TransactionsApp['gatewayWithdrawal'];
  let panelCreate: TransactionsApp['panelCreate'];
  let eventCount: TransactionsApp['eventCount'];

  beforeAll(async () => {
    ({
      app,
      client,
      admin,
      adminId,
      clerk,
      clerkId,
      merchantId,
      h2hProviderId,
      gatewayDeposit,
      gatewayWithdrawal,
      panelCreate,
      eventCount,
    } = await startTransactionsApp());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('every route answers 401 without a token, bare and under /api', async () => {
    const posts = [
      'deposit/approve',
      'deposit/reject',
      'deposit/update-amount',
      'deposit/update-quick',
      'deposit/update-full',
      'deposit/create',
      'withdrawal/approve',
      'withdrawal/reject',
      'withdrawal/assign',
      'withdrawal/update-amount',
      'withdrawal/update-quick',
      'withdrawal/update-full',
      'withdrawal/create',
    ];
    for (const prefix of ['/panel', '/api/panel']) {
      for (const path of posts) {
        expect(await client.post(`${prefix}/${path}`, { id: 1 })).toMatchObject({
          status: 401,
          body: { success: false, errorCode: 'authentication_required' },
        });
      }
      for (const path of ['transactions', 'transactions/1', 'transactions?limit=5']) {
        expect(await client.get(`${prefix}/${path}`)).toMatchObject({
          status: 401,
          body: { errorCode: 'authentication_required' },
        });
      }
      expect((await client.get(`${prefix}/transactions`, 'not.a.token')).status).toBe(401);
    }
  });

  it('approving a gateway deposit answers 201 with the transaction in TRY, state approved', async () => {
    const id = await gatewayDeposit(250.5);
    const res = await client.post('/panel/deposit/approve', { id }, admin);
    expect(res.status).toBe(201);
    const txn = PanelTransactionSchema.parse(res.body);
    expect(txn).toMatchObject({
      id,
      type: 'deposit',
      state: 'approved',
      amount: 250.5,
      originalAmount: 250.5,
      currency: 'TRY',
      form: 'h2h',
      merchantId,
      providerId: h2hProviderId,
    });
    expect(txn.bankAccount?.iban).toMatch(/^TR/);
    expect(res.body).not.toHaveProperty('paymentToken');
    // The same again under /api: already final, says so, changes nothing.
    const again = await client.post('/api/panel/deposit/approve', { id }, admin);
    expect(again).toMatchObject({ status: 422, body: { success: false, errorCode: 'transaction_final' } });
    expect(again.body.message).toMatch(/already approved/);
    expect(await eventCount(id, 'TransactionApproved')).toBe(1);
  });

  it("update-amount outside the merchant's range is refused with 422 amount_out_of_range and changes nothing", async () => {
    const id = await gatewayDeposit(100);
    const refused = await client.post('/panel/deposit/update-amount', { id, amount: 9_000_000 }, admin);
    expect(refused).toMatchObject({ status: 422, body: { success: false, errorCode: 'amount_out_of_range' } });
    expect(refused.body.message).toMatch(/^amount must be between \d+\.\d\d and \d+\.\d\d TRY$/);
    expect(await eventCount(id, 'TransactionAmountChanged')).toBe(0);
    const within = await client.post('/panel/deposit/update-amount', { id, amount: 120 }, admin);
    expect(within).toMatchObject({ status: 201, body: { amount: 120, originalAmount: 100 } });
  });

  it('20 concurrent approvals of one deposit: one 201, 19 × 422 transaction_final, one event, one posting', async () => {
    const id = await gatewayDeposit(400);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.post(i % 2 ? '/panel/deposit/approve' : '/api/panel/deposit/approve', { id }, admin),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(19);
    for (const answer of refused)
      expect(answer).toMatchObject({ status: 422, body: { errorCode: 'transaction_final' } });
    expect(await eventCount(id, 'TransactionApproved')).toBe(1);
    await app.settle();
    const postings = await app.db.query<{ n: string }>(
      `select count(*)::text n from es_events where type = 'TransfersPosted' and data->>'transactionId' = $1`,
      [id],
    );
    expect(postings.rows[0]!.n).toBe('1');
    const posted = await app.db.query<{ n: string; total: string }>(
      `select count(*)::text n, sum(amount_kurus)::text total from rm_transfers
       where transaction_id = $1 and state = 'posted'`,
      [id],
    );
    // One posted set: bank → merchant (amount − 2 %) and bank → fees (2 %), together the amount.
    expect(posted.rows[0]).toEqual({ n: '2', total: '40000' });
  });

  it('10 approvals racing 10 rejections: exactly one wins, the rest are told it is final', async () => {
    const id = await gatewayDeposit(120);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? client.post('/panel/deposit/approve', { id }, admin)
          : client.post('/panel/deposit/reject', { id, reason: 'race' }, admin),
      ),
    );
    const winners = answers.filter((a) => a.status === 201);
    expect(winners).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201))
      expect(answer).toMatchObject({ status: 422, body: { errorCode: 'transaction_final' } });
    const finalState = winners[0]!.body.state;
    expect(['approved', 'rejected']).toContain(finalState);
    expect((await eventCount(id, 'TransactionApproved')) + (await eventCount(id, 'TransactionRejected'))).toBe(1);
    expect((await client.get(`/panel/transactions/${id}`, admin)).body.state).toBe(finalState);
  });

  it('reject records the reason (answer, detail and event); a reason is required', async () => {
    const id = await gatewayDeposit(75);
    expect(await client.post('/panel/deposit/reject', { id }, admin)).toMatchObject({
      status: 400,
      body: { errorCode: 'validation_failed' },
    });
    const res = await client.post('/panel/deposit/reject', { id, reason: 'Dekont eşleşmedi' }, admin);
    expect(res).toMatchObject({ status: 201, body: { state: 'rejected', reason: 'Dekont eşleşmedi' } });
    const detail = await client.get(`/panel/transactions/${id}`, admin);
    expect(detail.body.reason).toBe('Dekont eşleşmedi');
    const rejected = detail.body.history.find((e: { type: string }) => e.type === 'TransactionRejected');
    expect(rejected.data).toMatchObject({ reason: 'Dekont eşleşmedi', fromState: 'awaiting_payment' });
    expect(rejected.metadata).toMatchObject({ actor: adminId, source: 'panel' });
  });

  it('withdrawal: assign → processing, update-amount keeps the original, approval after other balance moves keeps the invariants', async () => {
    const number = await gatewayWithdrawal(300);
    await app.settle(); // the integer number is found through the read model
    const assigned = await client.post('/panel/withdrawal/assign', { id: number }, admin);
    expect(assigned).toMatchObject({
      status: 201,
      body: { number, type: 'withdrawal', state: 'processing', assignee: adminId, iban: VALID_IBAN },
    });
    const id = String(assigned.body.id);
    // Reassign to another operator by username; it is recorded by id.
    expect(await client.post('/panel/withdrawal/assign', { id, assignee: 'clerk1' }, admin)).toMatchObject({
      status: 201,
      body: { assignee: clerkId },
    });
    expect(await client.post('/panel/withdrawal/assign', { id, assignee: 'nobody-such' }, admin)).toMatchObject({
      status: 400,
      body: { errorCode: 'validation_failed' },
    });

    const changed = await client.post('/panel/withdrawal/update-amount', { id, amount: '275.25' }, admin);
    expect(changed).toMatchObject({
      status: 201,
      body: { state: 'processing', amount: 275.25, originalAmount: 300, fee: 2.75 },
    });
    expect(await client.post('/panel/withdrawal/update-amount', { id, amount: 0 }, admin)).toMatchObject({
      status: 400,
      body: { errorCode: 'invalid_amount' },
    });

    // The merchant's balance moves meanwhile: deposits approved, other withdrawals created and rejected.
    for (const amount of [500, 700]) {
      const depositId = await gatewayDeposit(amount);
      expect((await client.post('/panel/deposit/approve', { id: depositId }, admin)).status).toBe(201);
    }
    for (const amount of [150, 90]) {
      const other = await panelCreate('withdrawal', { amount });
      expect(
        (await client.post('/api/panel/withdrawal/reject', { id: other.id, reason: 'duplicate payout' }, admin)).status,
      ).toBe(201);
    }
    const kept = await panelCreate('withdrawal', { amount: 60 });

    const approved = await client.post('/panel/withdrawal/approve', { id }, admin);
    expect(approved).toMatchObject({ status: 201, body: { state: 'approved', amount: 275.25, originalAmount: 300 } });
    await app.settle();
    expect(await checkLedgerInvariants(app.db)).toEqual([]);

    const detail = await client.get(`/api/panel/transactions/${number}`, admin);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id, state: 'approved', amount: 275.25, originalAmount: 300 });
    expect(detail.body.history.map((e: { type: string }) => e.type)).toEqual([
      'WithdrawalRequested',
      'TransactionAssigned',
      'TransactionAssigned',
      'TransactionAmountChanged',
      'TransactionApproved',
    ]);
    expect(detail.body.history.map((e: { version: number }) => e.version)).toEqual([1, 2, 3, 4, 5]);
    const amountChange = detail.body.history[3];
    expect(amountChange.data).toMatchObject({ fromKurus: '30000', toKurus: '27525' });
    // Operator id and client IP on the approval's metadata, the gateway as the request's actor.
    const approval = detail.body.history[4];
    expect(approval.metadata).toMatchObject({ actor: adminId, source: 'panel' });
    expect(approval.metadata.ip).toMatch(/127\.0\.0\.1/);
    expect(approval.data.by).toEqual({ source: 'panel', operatorId: adminId });
    expect(detail.body.history[0].metadata).toMatchObject({ actor: 'gateway', source: 'gateway' });
    // The customer's payment-page capability and the idempotency digest stay out of the panel.
    expect(detail.body.history[0].data).toHaveProperty('externalId');
    expect(detail.body.history[0].data).not.toHaveProperty('paymentToken');
    expect(detail.body.history[0].data).not.toHaveProperty('requestFingerprint');
    const raw = await app.db.query<{ metadata: Record<string, string> }>(
      `select metadata from es_events where stream_id = 'txn-'||$1 and type = 'TransactionApproved'`,
      [id],
    );
    expect(raw.rows[0]!.metadata).toMatchObject({ actor: adminId, source: 'panel' });
    expect(raw.rows[0]!.metadata.ip).toMatch(/127\.0\.0\.1/);

    // Final is final for the other actions too; the still-open withdrawal can be rejected.
    expect(await client.post('/panel/withdrawal/update-amount', { id, amount: 10 }, admin)).toMatchObject({
      status: 422,
      body: { errorCode: 'transaction_final' },
    });
    expect(
      (await client.post('/panel/withdrawal/reject', { id: kept.id, reason: 'customer cancelled' }, admin)).status,
    ).toBe(201);
    await app.settle();
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('a route of one kind does not act on the other kind; unknown ids are 404', async () => {
    const withdrawal = await panelCreate('withdrawal', { amount: 50 });
    expect(await client.post('/panel/deposit/approve', { id: withdrawal.id }, admin)).toMatchObject({
      status: 404,
      body: { errorCode: 'transaction_not_found' },
    });
    const deposit = await panelCreate('deposit');
    expect(await client.post('/panel/withdrawal/assign', { id: deposit.id }, admin)).toMatchObject({
      status: 404,
    });
    expect(
      await client.post('/panel/deposit/approve', { id: '00000000-0000-4000-8000-000000000000' }, admin),
    ).toMatchObject({ status: 404, body: { errorCode: 'transaction_not_found' } });
    expect(await client.post('/panel/deposit/approve', { id: 'DROP TABLE' }, admin)).toMatchObject({
      status: 400,
      body: { errorCode: 'validation_failed' },
    });
    expect(await client.get('/panel/transactions/not-an-id', admin)).toMatchObject({ status: 404 });
    expect(await client.get('/panel/transactions/999999999', admin)).toMatchObject({ status: 404 });
    expect((await client.post('/panel/deposit/assign', { id: deposit.id }, admin)).status).toBe(404);
  });

  it('an expired deposit is approved only by an operator holding transactions.approve_expired', async () => {
    const id = await gatewayDeposit(180);
    await app.commands.execute(
      new ExpireTransactionCommand({ transactionId: id, now: new Date(Date.now() + 86_400_000) }),
    );
    // The built-in `operator` role approves but lacks approve_expired: the ledger refuses the move.
    expect(await client.post('/panel/deposit/approve', { id }, clerk)).toMatchObject({
      status: 422,
      body: { errorCode: 'invalid_state_transition' },
    });
    const approved = await client.post('/panel/deposit/approve', { id }, admin);
    expect(approved).toMatchObject({ status: 201, body: { state: 'approved' } });
    const detail = await client.get(`/panel/transactions/${id}`, admin);
    expect(detail.body.history.at(-1).data).toMatchObject({ fromState: 'expired' });
  });
});
