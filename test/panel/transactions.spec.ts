import {
  ConfigureOperatorCommand,
  ConfigureRoleCommand,
  ExpireTransactionCommand,
  PanelTransactionSchema,
} from '@transfergate/contracts';
import { checkLedgerInvariants } from '@transfergate/ledger';
import { KEYS, VALID_IBAN, conformanceBootstrap, h2hBody } from '../gateway/conformance-fixture.js';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { panelClient } from './panel-client.js';

/**
 * The panel's transaction side over real HTTP on PostgreSQL: actions (each one ledger command with
 * the operator as actor), races decided by the ledger, the list with filters and cursor pages,
 * the detail with the event history, and RBAC.
 */
describe('panel transactions over HTTP (PostgreSQL)', () => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let adminId: string;
  let auditor: string;
  let clerk: string;
  let clerkId: string;
  let merchantId: string;
  let brokeMerchantId: string;
  let h2hProviderId: string;
  let brokeProviderId: string;
  let n = 0;
  const ext = (prefix: string) => `${prefix}-${++n}-${Date.now()}`;

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(conformanceBootstrap());
    await app.provision(issueBootstrap()); // admin / S3cure-pass!
    for (const [username, role] of [
      ['auditor1', 'auditor'],
      ['clerk1', 'operator'],
    ] as const) {
      await app.commands.execute(
        new ConfigureOperatorCommand({ username, password: 'Initial-pass-1', role, active: true }, { source: 'test' }),
      );
    }
    await app.settle();
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    auditor = (await client.login('auditor1', 'Initial-pass-1')).accessToken;
    clerk = (await client.login('clerk1', 'Initial-pass-1')).accessToken;
    adminId = (await client.get('/api/auth/me', admin)).body.id;
    clerkId = (await client.get('/api/auth/me', clerk)).body.id;
    const merchants = await app.db.query<{ merchant_id: string; name: string }>(
      'select merchant_id, name from rm_merchants',
    );
    merchantId = merchants.rows.find((m) => m.name === 'Conformance')!.merchant_id;
    brokeMerchantId = merchants.rows.find((m) => m.name === 'Broke')!.merchant_id;
    const providers = await app.db.query<{ provider_id: string; name: string }>(
      `select provider_id, record->>'name' as name from rm_providers`,
    );
    h2hProviderId = providers.rows.find((p) => p.name === 'conf-h2h')!.provider_id;
    brokeProviderId = providers.rows.find((p) => p.name === 'conf-broke')!.provider_id;
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** A deposit through the gateway's H2H API; answers its internal UUID. */
  async function gatewayDeposit(amount: number, externalId = ext('GD')): Promise<string> {
    const created = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEYS.h2h, externalId, amount));
    expect(created.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
    );
    expect(status.status).toBe(201);
    return String(status.body.uuid);
  }

  /** A withdrawal through the gateway's H2H API; answers its integer number. */
  async function gatewayWithdrawal(amount: number, externalId = ext('GW')): Promise<number> {
    const created = await postJson(
      `${app.baseUrl}/withdrawal/bank`,
      h2hBody(KEYS.h2h, externalId, amount, { iban: VALID_IBAN }),
    );
    expect(created.status).toBe(201);
    return Number(created.body.id);
  }

  async function panelCreate(
    kind: 'deposit' | 'withdrawal',
    fields: Record<string, unknown> = {},
    token = admin,
  ): Promise<Record<string, unknown>> {
    const res = await client.post(
      `/panel/${kind}/create`,
      {
        merchantId,
        providerId: h2hProviderId,
        amount: 100,
        customerName: 'Panel Müşteri',
        ...(kind === 'withdrawal' ? { iban: VALID_IBAN } : {}),
        ...fields,
      },
      token,
    );
    expect(res.status).toBe(201);
    return res.body;
  }

  const eventCount = async (transactionId: string, type: string) =>
    Number(
      (
        await app.db.query<{ n: string }>(
          `select count(*)::text n from es_events where stream_id = 'txn-'||$1 and type = $2`,
          [transactionId, type],
        )
      ).rows[0]!.n,
    );

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

  it('panel create: form panel, default external id, idempotent repeat, 409 on other data, rules from the ledger', async () => {
    const deposit = await panelCreate('deposit', { amount: '99.90', customerUsername: 'ayse42' });
    expect(deposit).toMatchObject({
      type: 'deposit',
      state: 'awaiting_payment',
      form: 'panel',
      amount: 99.9,
      customer: { fullName: 'Panel Müşteri', username: 'ayse42' },
    });
    expect(String(deposit.externalId)).toMatch(/^panel-[0-9a-f-]{36}$/);
    const detail = await client.get(`/panel/transactions/${deposit.id}`, admin);
    expect(detail.body.history[0].metadata).toMatchObject({ actor: adminId, source: 'panel' });

    const externalId = ext('PANEL');
    const first = await panelCreate('withdrawal', { externalId, amount: 80, iban: 'tr33 0006 1005 1978 6457 8413 26' });
    expect(first).toMatchObject({ externalId, type: 'withdrawal', state: 'pending', iban: VALID_IBAN, fee: 0.8 });
    // Provider by its integer number, IBAN spelled differently: the same request, the same answer.
    const providerNumber = (
      await app.db.query<{ n: string }>(`select record->>'number' n from rm_providers where provider_id = $1`, [
        h2hProviderId,
      ])
    ).rows[0]!.n;
    const repeat = await panelCreate('withdrawal', { externalId, amount: 80, providerId: Number(providerNumber) });
    expect(repeat.id).toBe(first.id);
    expect(
      await client.post(
        '/panel/withdrawal/create',
        {
          merchantId,
          providerId: h2hProviderId,
          externalId,
          amount: 81,
          customerName: 'Panel Müşteri',
          iban: VALID_IBAN,
        },
        admin,
      ),
    ).toMatchObject({ status: 409, body: { errorCode: 'duplicate_transaction' } });
    // The same external id as a deposit: another kind.
    expect(
      await client.post(
        '/panel/deposit/create',
        { merchantId, providerId: h2hProviderId, externalId, amount: 80, customerName: 'Panel Müşteri' },
        admin,
      ),
    ).toMatchObject({ status: 409 });

    // Provider of another merchant, unknown provider, bad IBAN, no balance, amount out of range.
    const base = { amount: 100, customerName: 'X Y', iban: VALID_IBAN };
    expect(
      await client.post('/panel/withdrawal/create', { ...base, merchantId, providerId: brokeProviderId }, admin),
    ).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    expect(
      await client.post('/panel/withdrawal/create', { ...base, merchantId, providerId: 'no-such-provider' }, admin),
    ).toMatchObject({ status: 404 });
    expect(
      await client.post(
        '/panel/withdrawal/create',
        { ...base, merchantId, providerId: h2hProviderId, iban: 'TR000000000000000000000000' },
        admin,
      ),
    ).toMatchObject({ status: 400, body: { errorCode: 'invalid_iban' } });
    expect(
      await client.post(
        '/panel/withdrawal/create',
        { ...base, merchantId: brokeMerchantId, providerId: brokeProviderId },
        admin,
      ),
    ).toMatchObject({ status: 422, body: { errorCode: 'insufficient_balance' } });
    expect(
      await client.post(
        '/panel/deposit/create',
        { merchantId, providerId: h2hProviderId, amount: 5, customerName: 'X Y' },
        admin,
      ),
    ).toMatchObject({ status: 422, body: { errorCode: 'amount_out_of_range' } });
    expect(
      await client.post('/panel/deposit/create', { merchantId, providerId: h2hProviderId, amount: 50 }, admin),
    ).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    await app.settle();
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('update-quick changes amount and/or assignee; update-full refuses fields the ledger cannot change', async () => {
    const w = await panelCreate('withdrawal', { amount: 200 });
    const quick = await client.post(
      '/panel/withdrawal/update-quick',
      { id: w.id, amount: 210, assignee: 'clerk1' },
      admin,
    );
    expect(quick).toMatchObject({
      status: 201,
      body: { amount: 210, originalAmount: 200, assignee: clerkId, state: 'processing' },
    });
    expect(await client.post('/panel/withdrawal/update-quick', { id: w.id }, admin)).toMatchObject({ status: 400 });
    expect(
      await client.post('/panel/withdrawal/update-quick', { id: w.id, amount: 5, note: 'x' }, admin),
    ).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    const versionOf = async () =>
      (await client.get(`/panel/transactions/${w.id}`, admin)).body.history.length as number;
    const before = await versionOf();
    // Unchanged fields send nothing.
    expect(
      await client.post(
        '/panel/withdrawal/update-full',
        { id: w.id, amount: 210, assignee: clerkId, customerName: 'Panel Müşteri', iban: VALID_IBAN },
        admin,
      ),
    ).toMatchObject({ status: 201, body: { amount: 210 } });
    expect(await versionOf()).toBe(before);
    // A changed name is refused before anything is written (the amount is not changed either).
    const refused = await client.post(
      '/panel/withdrawal/update-full',
      { id: w.id, amount: 220, customerName: 'Someone Else' },
      admin,
    );
    expect(refused).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    expect(refused.body.message).toMatch(/customerName/);
    expect(await versionOf()).toBe(before);
    const full = await client.post('/api/panel/withdrawal/update-full', { id: w.id, amount: 220 }, admin);
    expect(full).toMatchObject({ status: 201, body: { amount: 220, originalAmount: 200 } });
    expect(await versionOf()).toBe(before + 1);

    const d = await panelCreate('deposit', { amount: 60 });
    expect(await client.post('/panel/deposit/update-quick', { id: d.id, amount: 65 }, admin)).toMatchObject({
      status: 201,
      body: { amount: 65, originalAmount: 60, state: 'awaiting_payment' },
    });
    expect(
      await client.post(
        '/panel/deposit/update-full',
        {
          id: d.id,
          iban: (d.bankAccount as { iban: string }).iban === VALID_IBAN ? 'TR930006200000000006295317' : VALID_IBAN,
        },
        admin,
      ),
    ).toMatchObject({ status: 400 });
    await app.settle();
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it('the list filters and pages: newest first, each transaction exactly once across pages', async () => {
    const marker = `Q%_${Date.now().toString(36)}`;
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      const kind = i % 3 === 0 ? 'withdrawal' : 'deposit';
      created.push(String((await panelCreate(kind, { amount: 20 + i, customerName: `Kişi ${marker} ${i}` })).id));
    }
    // Would match an unescaped `%Q%_…%` pattern: the wildcards in q must be literal.
    await panelCreate('deposit', { customerName: `Kişi QxY${marker.slice(3)}` });
    await app.settle();

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `q=${encodeURIComponent(marker)}&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await client.get(`/panel/transactions?${query}`, admin);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.items.map((t: { id: string }) => t.id));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...created].reverse());

    // The whole list in pages of 4 against the read model: every row once.
    const all: string[] = [];
    cursor = null;
    do {
      const page = await client.get(`/api/panel/transactions?limit=4${cursor ? `&cursor=${cursor}` : ''}`, admin);
      all.push(...page.body.items.map((t: { id: string }) => t.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    const total = await app.db.query<{ n: string }>('select count(*)::text n from rm_transactions');
    expect(all).toHaveLength(Number(total.rows[0]!.n));
    expect(new Set(all).size).toBe(all.length);
    const createdAts = (await client.get('/panel/transactions?limit=200', admin)).body.items.map(
      (t: { createdAt: string }) => t.createdAt,
    );
    expect([...createdAts].sort().reverse()).toEqual(createdAts);

    const list = async (query: string) => {
      const res = await client.get(`/panel/transactions?${query}`, admin);
      expect(res.status).toBe(200);
      return res.body.items as Array<Record<string, unknown>>;
    };
    const withdrawals = await list(`q=${encodeURIComponent(marker)}&type=withdrawal`);
    expect(withdrawals.map((t) => t.id)).toEqual([created[6], created[3], created[0]]);
    expect(await list(`q=${encodeURIComponent(marker)}&state=awaiting_payment`)).toHaveLength(4);
    expect(await list(`q=${encodeURIComponent(marker)}&state=pending,processing`)).toHaveLength(3);
    expect(
      await list(`q=${encodeURIComponent(marker)}&merchantId=${merchantId}&providerId=${h2hProviderId}`),
    ).toHaveLength(7);
    expect(await list(`q=${encodeURIComponent(marker)}&merchantId=${brokeMerchantId}`)).toHaveLength(0);
    const approvedDeposits = await list('type=deposit&state=approved&limit=200');
    expect(approvedDeposits.length).toBeGreaterThan(0);
    for (const t of approvedDeposits) expect(t).toMatchObject({ type: 'deposit', state: 'approved' });
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    expect(await list(`q=${encodeURIComponent(marker)}&from=${from}&to=${to}`)).toHaveLength(7);
    expect(await list(`q=${encodeURIComponent(marker)}&from=${to}`)).toHaveLength(0);
    expect(await list(`q=${encodeURIComponent(marker)}&to=2000-01-01`)).toHaveLength(0);
    expect(await list(`q=${encodeURIComponent(marker)}&from=2000-01-01&to=2999-12-31`)).toHaveLength(7);
    // q finds the number (exactly), the external id and the IBAN.
    const one = await client.get(`/panel/transactions/${created[3]}`, admin);
    const byNumber = await list(`q=${one.body.number}`);
    expect(byNumber.map((t) => t.id)).toContain(created[3]);
    expect(await list(`q=${encodeURIComponent(String(one.body.externalId))}`)).toHaveLength(1);
    expect((await list(`q=${encodeURIComponent('0006 1005')}&type=withdrawal&limit=200`)).length).toBeGreaterThan(2);
    // List items: amounts in TRY, no payment token.
    expect(PanelTransactionSchema.parse(withdrawals[0])).toMatchObject({ amount: 26, currency: 'TRY' });
    expect(withdrawals[0]).not.toHaveProperty('paymentToken');

    for (const bad of [
      'limit=0',
      'limit=201',
      'limit=abc',
      'state=bogus',
      'type=refund',
      'from=yesterday',
      'cursor=%%%',
    ]) {
      expect(await client.get(`/panel/transactions?${bad}`, admin)).toMatchObject({
        status: 400,
        body: { errorCode: 'validation_failed' },
      });
    }
    expect(
      await client.get(`/panel/transactions?cursor=${Buffer.from('["x","y"]').toString('base64url')}`, admin),
    ).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
  });

  it('the detail shows the transaction and its full history, by UUID or number', async () => {
    const id = await gatewayDeposit(90);
    expect((await client.post('/panel/deposit/approve', { id }, admin)).status).toBe(201);
    await app.settle();
    const detail = await client.get(`/panel/transactions/${id}`, admin);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id, type: 'deposit', state: 'approved', amount: 90 });
    expect(detail.body.history).toHaveLength(2);
    expect(detail.body.history[0]).toMatchObject({
      type: 'DepositRequested',
      version: 1,
      schemaVersion: 1,
      data: { transactionId: id, amountKurus: '9000' },
      metadata: { actor: 'gateway', source: 'gateway' },
    });
    expect(detail.body.history[1]).toMatchObject({
      type: 'TransactionApproved',
      version: 2,
      metadata: { actor: adminId, source: 'panel' },
    });
    expect(detail.body.history[1].createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const byNumber = await client.get(`/api/panel/transactions/${detail.body.number}`, admin);
    expect(byNumber.body).toEqual(detail.body);
  });

  it('an auditor lists and reads, but every action is 403 permission_denied', async () => {
    expect((await client.get('/panel/transactions', auditor)).status).toBe(200);
    const id = await gatewayDeposit(110);
    expect((await client.get(`/panel/transactions/${id}`, auditor)).status).toBe(200);
    for (const [path, body] of [
      ['/panel/deposit/approve', { id }],
      ['/panel/deposit/reject', { id, reason: 'no' }],
      ['/panel/deposit/update-amount', { id, amount: 100 }],
      ['/panel/deposit/update-quick', { id, amount: 100 }],
      ['/panel/deposit/update-full', { id, amount: 100 }],
      ['/panel/deposit/create', {}],
      ['/panel/withdrawal/assign', { id }],
      ['/api/panel/withdrawal/approve', { id }],
      ['/panel/withdrawal/create', {}],
    ] as const) {
      expect(await client.post(path, body, auditor)).toMatchObject({
        status: 403,
        body: { errorCode: 'permission_denied' },
      });
    }
    expect(await eventCount(id, 'TransactionApproved')).toBe(0);
    // update-quick with an assignee needs transactions.assign as well: a role with update only is refused.
    await app.commands.execute(
      new ConfigureRoleCommand(
        { name: 'editor', permissions: ['transactions.view', 'transactions.update'] },
        { source: 'test' },
      ),
    );
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: 'editor1', password: 'Initial-pass-1', role: 'editor', active: true },
        { source: 'test' },
      ),
    );
    await app.settle();
    const editor = (await client.login('editor1', 'Initial-pass-1')).accessToken;
    expect(await client.post('/panel/deposit/update-quick', { id, assignee: 'editor1' }, editor)).toMatchObject({
      status: 403,
      body: { errorCode: 'permission_denied' },
    });
    expect(await client.post('/panel/deposit/update-quick', { id, amount: 111 }, editor)).toMatchObject({
      status: 201,
      body: { amount: 111 },
    });
    expect((await client.post('/panel/deposit/approve', { id }, editor)).status).toBe(403);
  });
});
