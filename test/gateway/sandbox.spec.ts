import { parseBootstrap } from '@transfergate/all-in-one';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { panelClient } from '../panel/panel-client.js';
import {
  CB_IBAN,
  CB_KEYS,
  CallbackReceiver,
  callbackBootstrapFile,
  h2hRequest,
} from '../callbacks/callback-fixture.js';

/**
 * The sandbox: a provider an admin marked `sandbox` decides its own transactions through the API
 * (POST /sandbox/transactions/{id}/approve | reject), through the ledger commands operators use, and
 * its callbacks arrive as in production. A provider not marked sandbox is refused 403 sandbox_only and
 * nothing changes; another provider's transaction is not found.
 */
describe('sandbox providers (PGlite)', () => {
  let app: TestApp;
  let receiver: CallbackReceiver;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let n = 0;
  const ext = (prefix: string) => `${prefix}-${++n}-${Date.now()}`;

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    app = await startTestApp('pglite', {
      callbacks: { retryScheduleMs: [0, 200], requestTimeoutMs: 2_000, leaseMs: 5_000, pollIntervalMs: 50 },
    });
    const file = callbackBootstrapFile(receiver.base);
    // The H2H provider is a sandbox provider (provisioning file); the Merchant API one is marked later in the panel.
    for (const merchant of file.merchants) {
      for (const provider of merchant.providers)
        if (provider.name === 'cb-h2h') Object.assign(provider, { sandbox: true });
    }
    await app.provision(parseBootstrap(file, 'sandbox'));
    await app.provision(issueBootstrap());
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

  const creds = (key: { apiKey: string; apiSecret: string }) => ({
    'x-api-key': key.apiKey,
    'x-api-secret': key.apiSecret,
  });
  const sandbox = (key: { apiKey: string; apiSecret: string }, id: string, action: string, body = {}) =>
    postJson(`${app.baseUrl}/sandbox/transactions/${encodeURIComponent(id)}/${action}`, body, creds(key));
  const stateOf = async (key: { apiKey: string; apiSecret: string }, id: string) =>
    (await postJson(`${app.baseUrl}/status/${id}`, {}, creds(key))).body.status;

  it('approves its own deposit: 201 with the approved transaction, and the approval callback arrives', async () => {
    const id = ext('SBX-D');
    expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hRequest(CB_KEYS.h2h, id, 120))).status).toBe(201);
    const approved = await sandbox(CB_KEYS.h2h, id, 'approve');
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({ success: true, transactionId: id, status: 'approved' });
    const callback = await receiver.waitFor(() =>
      receiver.at('/cb-h2h/deposit').find((r) => r.body.transaction_id === id || r.body.transactionId === id),
    );
    expect(callback.body).toMatchObject({ status: 'APPROVED', type: 'deposit' });
    // Final stays final: a second decision changes nothing and says so.
    const again = await sandbox(CB_KEYS.h2h, id, 'reject');
    expect(again.status).toBe(422);
    expect(await stateOf(CB_KEYS.h2h, id)).toBe('approved');
    await app.settle();
    // The ledger recorded who decided: the sandbox.
    const { rows } = await app.db.query<{ source: string }>(
      `select metadata->>'source' source from es_events where type = 'TransactionApproved'
       and stream_id = 'txn-' || $1`,
      [approved.body.uuid],
    );
    expect(rows).toEqual([{ source: 'sandbox' }]);
  });

  it('rejects its own withdrawal by our id with a reason: the rejection callback carries it', async () => {
    const id = ext('SBX-W');
    const created = await postJson(`${app.baseUrl}/withdrawal/bank`, {
      ...h2hRequest(CB_KEYS.h2h, id, 80),
      iban: CB_IBAN,
    });
    expect(created.status).toBe(201);
    const rejected = await sandbox(CB_KEYS.h2h, String(created.body.id), 'reject', {
      by: 'id',
      reason: 'test: holder name mismatch',
    });
    expect(rejected.status).toBe(201);
    expect(rejected.body).toMatchObject({ transactionId: id, status: 'rejected' });
    const callback = await receiver.waitFor(() =>
      receiver.at('/cb-h2h/withdrawal').find((r) => r.body.transaction_id === id || r.body.transactionId === id),
    );
    expect(callback.body).toMatchObject({ status: 'REJECTED', reason: 'test: holder name mismatch' });
  });

  it('a provider not marked sandbox is refused 403 sandbox_only and nothing changes, until an admin marks it', async () => {
    const id = ext('SBX-M');
    const created = await postJson(
      `${app.baseUrl}/deposit`,
      { transactionId: id, amount: 50, username: 'sbx' },
      creds(CB_KEYS.merchant),
    );
    expect(created.status).toBe(200);
    const refused = await sandbox(CB_KEYS.merchant, id, 'approve');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, errorCode: 'sandbox_only' });
    expect(await stateOf(CB_KEYS.merchant, id)).toBe('awaiting_payment');

    // The admin marks it sandbox in the panel; the record shows it; now the integrator may decide.
    const list = await client.get('/panel/providers', admin);
    const record = (list.body.items ?? list.body).find((p: { name: string }) => p.name === 'cb-merchant');
    expect(record.sandbox).toBe(false);
    const saved = await client.post('/panel/providers/save', { name: 'cb-merchant', sandbox: true }, admin);
    expect(saved.status).toBe(201);
    expect(saved.body.record.sandbox).toBe(true);
    await app.settle();
    // The gateway caches provider records for at most 5 s (like a deactivation, the flag applies within that).
    let status = 0;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      status = (await sandbox(CB_KEYS.merchant, id, 'approve')).status;
      if (status !== 403) break;
    }
    expect(status).toBe(201);
    expect(await stateOf(CB_KEYS.merchant, id)).toBe('approved');
  });

  it("another provider's transaction is not found; wrong credentials are refused before anything", async () => {
    const id = ext('SBX-X');
    expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hRequest(CB_KEYS.md5, id, 30))).status).toBe(201);
    const foreign = await sandbox(CB_KEYS.h2h, id, 'approve');
    expect([foreign.status, foreign.body.errorCode]).toEqual([404, 'transaction_not_found']);
    const wrong = await sandbox({ apiKey: CB_KEYS.h2h.apiKey, apiSecret: 'not-the-secret' }, id, 'approve');
    expect([wrong.status, wrong.body.errorCode]).toEqual([401, 'invalid_credentials']);
    expect(await stateOf(CB_KEYS.md5, id)).toBe('awaiting_payment');
  });
});
