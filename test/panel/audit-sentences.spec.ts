import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { KEYS, conformanceBootstrap, h2hBody } from '../gateway/conformance-fixture.js';
import { panelClient } from './panel-client.js';

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
});
