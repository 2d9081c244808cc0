import { ConfigureOperatorCommand, ConfigureRoleCommand, PanelTransactionSchema } from '@transfergate/contracts';
import { type TestApp } from '../support/test-app.js';
import { startTransactionsApp, type TransactionsApp } from './transactions-fixture.js';

/**
 * The panel's transaction list with filters and cursor pages, the detail with the event history,
 * and an auditor who may read but not act, over real HTTP on PostgreSQL.
 */
describe('panel transactions over HTTP (PostgreSQL): list, detail and RBAC', () => {
  let app: TestApp;
  let client: TransactionsApp['client'];
  let admin: TransactionsApp['admin'];
  let adminId: TransactionsApp['adminId'];
  let auditor: TransactionsApp['auditor'];
  let merchantId: TransactionsApp['merchantId'];
  let brokeMerchantId: TransactionsApp['brokeMerchantId'];
  let h2hProviderId: TransactionsApp['h2hProviderId'];
  let gatewayDeposit: TransactionsApp['gatewayDeposit'];
  let panelCreate: TransactionsApp['panelCreate'];
  let eventCount: TransactionsApp['eventCount'];

  beforeAll(async () => {
    ({
      app,
      client,
      admin,
      adminId,
      auditor,
      merchantId,
      brokeMerchantId,
      h2hProviderId,
      gatewayDeposit,
      panelCreate,
      eventCount,
    } = await startTransactionsApp());
  });
  afterAll(async () => {
    await app?.stop();
  });

  // First: the list's filters read an approved deposit, which this test makes.
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
