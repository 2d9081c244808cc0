import { ConfigureOperatorCommand, PanelAmountChangeListSchema, PanelTransactionSchema } from '@transfergate/contracts';
import { checkLedgerInvariants } from '@transfergate/ledger';
import { VALID_IBAN, conformanceBootstrap, h2hBody, KEYS } from '../gateway/conformance-fixture.js';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { camt } from '../reconciliation/statement-files.js';
import { panelClient } from './panel-client.js';

/**
 * Four eyes over real HTTP on PostgreSQL: an amount change beyond FOUR_EYES_ABOVE_KURUS (here
 * 100.00 TRY) or FOUR_EYES_ABOVE_PERCENT (here 50 %) of the requested amount waits for a second
 * admin; the admin who asked cannot decide it; approvals sent at once apply once.
 */
describe('four eyes on amount changes (PostgreSQL, HTTP)', () => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let second: string;
  let third: string;
  let adminId: string;
  let n = 0;

  beforeAll(async () => {
    app = await startTestApp('postgres', { fourEyes: { aboveKurus: 10_000n, abovePercent: 50 } });
    await app.provision(conformanceBootstrap());
    await app.provision(issueBootstrap()); // admin / S3cure-pass!
    for (const username of ['admin2', 'admin3']) {
      await app.commands.execute(
        new ConfigureOperatorCommand(
          { username, password: 'Initial-pass-1', role: 'admin', active: true },
          { source: 'test' },
        ),
      );
    }
    await app.settle();
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    second = (await client.login('admin2', 'Initial-pass-1')).accessToken;
    third = (await client.login('admin3', 'Initial-pass-1')).accessToken;
    adminId = (await client.get('/api/auth/me', admin)).body.id;
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function deposit(amount: number): Promise<string> {
    const externalId = `FE-${++n}-${Date.now()}`;
    expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEYS.h2h, externalId, amount))).status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
    );
    return String(status.body.uuid);
  }

  const events = async (transactionId: string, type: string) =>
    (
      await app.db.query<{ data: Record<string, unknown>; actor: string | null }>(
        `select data, metadata->>'actor' as actor from es_events where stream_id = 'txn-'||$1 and type = $2 order by stream_version`,
        [transactionId, type],
      )
    ).rows;

  it('a change within the limits is made at once (201)', async () => {
    const id = await deposit(1_000);
    const changed = await client.post('/panel/deposit/update-amount', { id, amount: 1_090 }, admin);
    expect(changed.status).toBe(201);
    expect(changed.body).toMatchObject({ amount: 1_090 });
    expect(changed.body.pendingAmountChange).toBeUndefined();
  });

  it('beyond the sum: 202, the amount unchanged, listed for a second admin; the one who asked cannot decide it', async () => {
    const id = await deposit(1_000);
    const asked = await client.post('/panel/deposit/update-amount', { id, amount: 1_250.5 }, admin);
    expect(asked.status).toBe(202);
    PanelTransactionSchema.parse(asked.body);
    expect(asked.body).toMatchObject({
      amount: 1_000,
      pendingAmountChange: { fromAmount: 1_000, toAmount: 1_250.5, requestedBy: adminId, requestedByName: 'admin' },
    });
    const { requestId } = asked.body.pendingAmountChange;

    const list = await client.get('/panel/amount-changes', second);
    expect(list.status).toBe(200);
    const items = PanelAmountChangeListSchema.parse(list.body).items;
    expect(items.find((t) => t.id === id)?.pendingAmountChange).toMatchObject({ requestId, toAmount: 1_250.5 });

    // Another change while it waits is refused, whoever asks.
    expect(await client.post('/panel/deposit/update-amount', { id, amount: 1_010 }, second)).toMatchObject({
      status: 409,
      body: { errorCode: 'amount_change_pending' },
    });
    // The admin who asked cannot approve or reject it.
    for (const path of ['/panel/amount-changes/approve', '/panel/amount-changes/reject']) {
      expect(await client.post(path, { id, requestId, reason: 'mine' }, admin)).toMatchObject({
        status: 403,
        body: { errorCode: 'four_eyes_same_operator' },
      });
    }
    const detail = await client.get(`/panel/transactions/${id}`, admin);
    expect(detail.body).toMatchObject({ amount: 1_000, pendingAmountChange: { requestId } });
    expect(await events(id, 'TransactionAmountChanged')).toHaveLength(0);

    // A rejection needs a reason (400) and then keeps the amount.
    expect(await client.post('/panel/amount-changes/reject', { id, requestId }, second)).toMatchObject({
      status: 400,
      body: { errorCode: 'validation_failed' },
    });
    const rejected = await client.post(
      '/panel/amount-changes/reject',
      { id, requestId, reason: 'wrong amount' },
      second,
    );
    expect(rejected.status).toBe(201);
    expect(rejected.body.amount).toBe(1_000);
    expect(rejected.body.pendingAmountChange).toBeUndefined();
    const listAfter = PanelAmountChangeListSchema.parse((await client.get('/panel/amount-changes', second)).body);
    expect(listAfter.items.find((t) => t.id === id)).toBeUndefined();
  });

  it('approvals sent at once by the asker and two other admins apply once; every step is in the audit log', async () => {
    const id = await deposit(200);
    // 200.00 → 320.00 TRY: 120.00 TRY above the sum and 60 % above the share.
    const asked = await client.post('/panel/deposit/update-amount', { id, amount: 320 }, admin);
    expect(asked.status).toBe(202);
    const { requestId } = asked.body.pendingAmountChange;

    const tokens = [second, third, second, third, admin, second, third, admin];
    const answers = await Promise.all(
      tokens.map((token) => client.post('/panel/amount-changes/approve', { id, requestId }, token)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(tokens[statuses.indexOf(201)]).not.toBe(admin);
    for (const [i, a] of answers.entries()) {
      if (a.status === 201) continue;
      // The asker's own: refused as the asker while the change waits, as decided once it does not.
      const codes =
        tokens[i] === admin ? ['four_eyes_same_operator', 'amount_change_not_pending'] : ['amount_change_not_pending'];
      expect(codes).toContain(a.body.errorCode);
      expect(a.status).toBe(a.body.errorCode === 'four_eyes_same_operator' ? 403 : 409);
    }
    expect(answers.find((a) => a.status === 201)!.body).toMatchObject({ amount: 320 });

    const changed = await events(id, 'TransactionAmountChanged');
    expect(changed).toHaveLength(1);
    expect(changed[0]!.data).toMatchObject({ fromKurus: '20000', toKurus: '32000' });
    const approved = await events(id, 'AmountChangeApproved');
    expect(approved).toHaveLength(1);
    expect(approved[0]!.data).toMatchObject({ requestId, requestedBy: adminId });
    expect(approved[0]!.actor).not.toBe(adminId);

    const audit = await client.get(
      '/panel/audit?type=AmountChangeRequested,AmountChangeApproved,TransactionAmountChanged',
      admin,
    );
    expect(audit.status).toBe(200);
    const mine = audit.body.items.filter((e: { stream: string }) => e.stream === `txn-${id}`);
    expect(mine.map((e: { type: string }) => e.type).sort()).toEqual([
      'AmountChangeApproved',
      'AmountChangeRequested',
      'TransactionAmountChanged',
    ]);
    expect(mine.find((e: { type: string }) => e.type === 'AmountChangeRequested')).toMatchObject({
      actor: adminId,
      username: 'admin',
    });
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
  });

  it("a withdrawal's approved change moves its reservation once; the share alone is enough to wait", async () => {
    const externalId = `FW-${++n}-${Date.now()}`;
    const created = await postJson(
      `${app.baseUrl}/withdrawal/bank`,
      h2hBody(KEYS.h2h, externalId, 100, { iban: VALID_IBAN }),
    );
    expect(created.status).toBe(201);
    const number = Number(created.body.id);
    // 100.00 → 40.00 TRY: 60.00 TRY is within the sum, 60 % is above the share.
    const asked = await client.post('/panel/withdrawal/update-amount', { id: number, amount: 40 }, admin);
    expect(asked.status).toBe(202);
    const { requestId } = asked.body.pendingAmountChange;
    const answers = await Promise.all(
      [second, third].map((token) => client.post('/panel/amount-changes/approve', { id: number, requestId }, token)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(await checkLedgerInvariants(app.db)).toEqual([]);
    const detail = await client.get(`/panel/transactions/${number}`, admin);
    expect(detail.body).toMatchObject({ amount: 40, originalAmount: 100 });
  });

  it('a match at a received amount beyond the limits asks for the change and leaves the line queued', async () => {
    const id = await deposit(500);
    const detail = (await client.get(`/panel/transactions/${id}`, admin)).body;
    const day = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const ref = `FE-LINE-${Date.now()}`;
    const imported = await fetch(
      `${app.baseUrl}/panel/reconciliation/accounts/${detail.bankAccount.bankAccountId}/statements?format=camt053`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${admin}` },
        body: camt(
          [
            {
              ref,
              day,
              time: '10:00',
              direction: 'credit',
              amountKurus: 90_000n,
              description: 'havale',
              name: 'Ali Veli',
            },
          ],
          'camt053',
          { accountIban: detail.bankAccount.iban },
        ),
      },
    );
    expect(imported.status).toBe(201);
    const lines = await client.get(
      `/panel/reconciliation/lines?bankAccountId=${detail.bankAccount.bankAccountId}&limit=200`,
      admin,
    );
    const lineId = lines.body.items.find((l: { bankReference?: string }) => l.bankReference === ref).lineId;

    // 500.00 paid 900.00: 400.00 TRY more than asked, beyond the sum.
    const matched = await client.post(
      `/panel/reconciliation/lines/${lineId}/match`,
      { transactionId: id, amount: 'received' },
      admin,
    );
    expect(matched.status).toBe(202);
    expect(matched.body).toMatchObject({
      state: 'queued',
      amountChangeWaiting: { transactionId: id, toKurus: '90000' },
    });
    const { requestId } = matched.body.amountChangeWaiting;
    expect((await client.get(`/panel/transactions/${id}`, admin)).body).toMatchObject({
      state: 'awaiting_payment',
      amount: 500,
      pendingAmountChange: { requestId, toAmount: 900, lineId },
    });
    expect(await events(id, 'TransactionApproved')).toHaveLength(0);

    // Another admin approves the change; the line then matches at the deposit's amount, now the received one.
    expect((await client.post('/panel/amount-changes/approve', { id, requestId }, second)).status).toBe(201);
    const after = await client.post(`/panel/reconciliation/lines/${lineId}/match`, { transactionId: id }, admin);
    expect(after.status).toBe(201);
    expect(after.body).toMatchObject({ state: 'matched', transactionId: id });
    expect((await client.get(`/panel/transactions/${id}`, admin)).body).toMatchObject({
      state: 'approved',
      amount: 900,
    });
  });

  it('names an unknown request 409 and a malformed one 400', async () => {
    const id = await deposit(300);
    expect(
      await client.post(
        '/panel/amount-changes/approve',
        { id, requestId: '00000000-0000-4000-8000-000000000000' },
        second,
      ),
    ).toMatchObject({ status: 409, body: { errorCode: 'amount_change_not_pending' } });
    expect(await client.post('/panel/amount-changes/approve', { id, requestId: 'x' }, second)).toMatchObject({
      status: 400,
      body: { errorCode: 'validation_failed' },
    });
    expect(await client.get('/panel/amount-changes')).toMatchObject({ status: 401 });
  });
});
