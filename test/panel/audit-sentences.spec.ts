import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { KEYS, conformanceBootstrap, h2hBody } from '../gateway/conformance-fixture.js';
import { camt } from '../reconciliation/statement-files.js';
import { panelClient } from './panel-client.js';

/** issueBootstrap's provider: its deposits go to the receiving account the statement is for. */
const ISSUE_KEY = { apiKey: 'ak_test_1', apiSecret: 'sk_test_1' };

/**
 * The audit log reads as sentences. Sign-ins and failed sign-ins are
 * events (who, from where; a failed one keeps the name as typed and never the password), and a
 * transaction's entries carry its number.
 */
describe('audit log: sign-ins and transaction numbers (PGlite)', () => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;

  beforeAll(async () => {
    app = await startTestApp('pglite');
    await app.provision(conformanceBootstrap());
    await app.provision(issueBootstrap());
    client = panelClient(app);
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function audit(query: string, token: string) {
    await app.settle();
    const res = await client.get(`/panel/audit?${query}`, token);
    expect(res.status).toBe(200);
    return res.body.items as Array<Record<string, unknown>>;
  }

  it('records sign-ins and failed sign-ins with the name, the operator and the IP, never the password', async () => {
    const wrong = await client.post('/api/auth/login', { username: 'admin', password: 'Wrong-password-1' });
    expect(wrong.status).toBe(401);
    const nobody = await client.post('/api/auth/login', { username: 'no-such-operator', password: 'Whatever-123' });
    expect(nobody.status).toBe(401);
    const token = (await client.login('admin', 'S3cure-pass!')).accessToken;
    const adminId = (await client.get('/api/auth/me', token)).body.id;

    const entries = await audit('type=OperatorSignedIn,OperatorSignInFailed', token);
    const signedIn = entries.filter((e) => e.type === 'OperatorSignedIn');
    const failed = entries.filter((e) => e.type === 'OperatorSignInFailed');
    expect(signedIn[0]).toMatchObject({
      username: 'admin',
      actor: adminId,
      ip: '127.0.0.1',
      after: { operatorId: adminId, username: 'admin', secondFactorRequired: false },
    });
    expect(failed.map((e) => (e.after as { username: string }).username).sort()).toEqual(['admin', 'no-such-operator']);
    expect(failed.find((e) => (e.after as { username: string }).username === 'admin')!.after).toMatchObject({
      operatorId: adminId,
    });
    expect(JSON.stringify(entries)).not.toMatch(/Wrong-password-1|Whatever-123|S3cure-pass/);
    // The sign-in streams never disturb the operator record's before/after.
    const operatorEntries = await audit('type=OperatorConfigured', token);
    expect(operatorEntries.length).toBeGreaterThan(0);
  });

  it("a transaction's audit entries name it by number; an amount change keeps old and new", async () => {
    const token = (await client.login('admin', 'S3cure-pass!')).accessToken;
    const externalId = `audit-${Date.now()}`;
    const created = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEYS.h2h, externalId, 150));
    expect(created.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
    );
    const number = Number(status.body.id);
    expect((await client.post('/panel/deposit/update-amount', { id: number, amount: 175.5 }, token)).status).toBe(201);
    expect((await client.post('/panel/deposit/approve', { id: number }, token)).status).toBe(201);
    const entries = await audit('type=TransactionAmountChanged,TransactionApproved', token);
    const mine = entries.filter((e) => e.transactionNumber === number);
    expect(mine.map((e) => e.type).sort()).toEqual(['TransactionAmountChanged', 'TransactionApproved']);
    expect(mine.find((e) => e.type === 'TransactionAmountChanged')!.after).toMatchObject({
      fromKurus: '15000',
      toKurus: '17550',
    });
    // Entries of other streams have no number.
    const config = await audit('type=MerchantConfigured', token);
    expect(config.every((e) => e.transactionNumber === null)).toBe(true);
  });

  it('a statement import, a match and a dismissal are one entry each, naming the file, the bank line and the deposit', async () => {
    const token = (await client.login('admin', 'S3cure-pass!')).accessToken;
    const externalId = `audit-recon-${Date.now()}`;
    expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(ISSUE_KEY, externalId, 250))).status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': ISSUE_KEY.apiKey, 'x-api-secret': ISSUE_KEY.apiSecret },
    );
    const number = Number(status.body.id);
    const { rows } = await app.db.query<{ id: string; iban: string }>(
      `select t.bank_account_id as id, b.iban from rm_transactions t
       join rm_bank_accounts b on b.bank_account_id = t.bank_account_id where t.transaction_id = $1`,
      [String(status.body.uuid)],
    );
    const accountId = rows[0]!.id;
    // The statement is the receiving account's own: rotation picks any of the seeded accounts.
    const accountIban = rows[0]!.iban;
    const day = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const imported = await fetch(
      `${app.baseUrl}/panel/reconciliation/accounts/${accountId}/statements?format=camt053&fileName=ekstre-7-aralik.xml`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${token}` },
        body: camt(
          [
            // Another sender: waits for an operator rather than matching by itself.
            {
              ref: 'AUD1',
              day,
              time: '10:00',
              direction: 'credit',
              amountKurus: 25000n,
              description: `TG-${number}`,
              name: 'Başka Biri',
            },
            {
              ref: 'AUD2',
              day,
              time: '10:05',
              direction: 'credit',
              amountKurus: 4200n,
              description: 'kira',
              name: 'Ali Veli',
            },
          ],
          'camt053',
          { accountIban },
        ),
      },
    );
    expect({ status: imported.status, body: imported.status === 201 ? null : await imported.text() }).toEqual({
      status: 201,
      body: null,
    });
    await app.settle();
    const lines = await client.get(`/panel/reconciliation/lines?bankAccountId=${accountId}&limit=100`, token);
    const lineOf = (ref: string) =>
      (lines.body.items as Array<{ lineId: string; bankReference?: string }>).find((l) => l.bankReference === ref)!
        .lineId;
    const match = await client.post(
      `/panel/reconciliation/lines/${lineOf('AUD1')}/match`,
      { transactionId: String(status.body.uuid), amount: 'requested' },
      token,
    );
    expect({ status: match.status, body: match.status < 300 ? null : match.body }).toEqual({ status: 201, body: null });
    expect(
      (await client.post(`/panel/reconciliation/lines/${lineOf('AUD2')}/dismiss`, { reason: 'kira ödemesi' }, token))
        .status,
    ).toBeLessThan(300);

    const since = new Date(Date.now() - 60_000).toISOString();
    const entries = await audit(`from=${encodeURIComponent(since)}&limit=200`, token);
    const recon = entries.filter((e) => String(e.type).startsWith('Statement'));
    // One entry per action, not one per line, assessment and claim.
    expect(recon.map((e) => e.type).sort()).toEqual([
      'StatementImported',
      'StatementLineDismissed',
      'StatementLineMatched',
    ]);
    expect(recon.find((e) => e.type === 'StatementImported')!.after).toMatchObject({
      fileName: 'ekstre-7-aralik.xml',
      linesNew: 2,
    });
    const matched = recon.find((e) => e.type === 'StatementLineMatched')!;
    expect(matched).toMatchObject({
      username: 'admin',
      transactionNumber: number,
      statementLine: { bankReference: 'AUD1', amountKurus: '25000', bookedOn: day, fileName: 'ekstre-7-aralik.xml' },
    });
    expect(recon.find((e) => e.type === 'StatementLineDismissed')).toMatchObject({
      username: 'admin',
      after: { reason: 'kira ödemesi' },
      statementLine: { bankReference: 'AUD2', amountKurus: '4200', fileName: 'ekstre-7-aralik.xml' },
    });
    // The parts are still there when asked for by type.
    const parts = await audit('type=StatementLineImported', token);
    expect(
      parts.filter((e) => (e.statementLine as { fileName?: string } | null)?.fileName === 'ekstre-7-aralik.xml'),
    ).toHaveLength(2);
  });
});
