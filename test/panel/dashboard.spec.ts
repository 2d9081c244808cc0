import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { ENGINES, issueBootstrap, postJson, startTestApp, type Engine, type TestApp } from '../support/test-app.js';
import { h2hRequest } from '../callbacks/callback-fixture.js';
import { panelClient } from './panel-client.js';

const ACME = { apiKey: 'ak_test_1', apiSecret: 'sk_test_1' };
/** Today as a Turkish business day (UTC+3, no DST). */
const turkishDay = (ms: number) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);

/** GET /panel/dashboard: approvals per Turkish business day and the open queues, over real HTTP. */
describe.each(ENGINES)('panel dashboard (%s)', (engine: Engine) => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let n = 0;

  beforeAll(async () => {
    app = await startTestApp(engine);
    await app.provision(issueBootstrap());
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: 'auditor1', password: 'Initial-pass-1', role: 'auditor', active: true },
        { source: 'test' },
      ),
    );
    await app.settle();
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function create(kind: 'deposit' | 'withdrawal', amount: number): Promise<string> {
    const id = `dash-${engine}-${++n}-${Date.now()}`;
    const res = await postJson(`${app.baseUrl}/${kind}/bank`, {
      ...h2hRequest(ACME, id, amount),
      ...(kind === 'withdrawal' ? { iban: 'TR330006100519786457841326' } : {}),
    });
    expect(res.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${id}`,
      {},
      { 'x-api-key': ACME.apiKey, 'x-api-secret': ACME.apiSecret },
    );
    return String(status.body.uuid);
  }

  async function dashboard(query = '', token = admin) {
    await app.settle();
    return client.get(`/panel/dashboard${query}`, token);
  }

  it('starts empty: seven days ending today, no approvals, no open queues', async () => {
    const res = await dashboard();
    expect(res.status).toBe(200);
    expect(res.body.day).toBe(turkishDay(Date.now()));
    expect(res.body.timeZone).toBe('UTC+03:00');
    expect(res.body.pending).toEqual({ deposit: 0, withdrawal: 0 });
    expect(res.body.days).toHaveLength(7);
    expect(res.body.days[6].day).toBe(res.body.day);
    expect(res.body.days[0].day).toBe(turkishDay(Date.now() - 6 * 86_400_000));
    for (const entry of res.body.days) {
      expect(entry.deposit).toEqual({ approvedCount: 0, approvedVolume: 0, medianApprovalSeconds: null });
      expect(entry.withdrawal).toEqual({ approvedCount: 0, approvedVolume: 0, medianApprovalSeconds: null });
    }
  });

  it('counts approvals on today, sums their TRY exactly, takes the median time, counts the open ones', async () => {
    const first = await create('deposit', 100);
    const second = await create('deposit', 250.25);
    await create('deposit', 75); // stays open
    const startedMs = Date.now();
    for (const id of [first, second]) {
      expect((await client.post('/panel/deposit/approve', { id }, admin)).status).toBe(201);
    }
    const elapsedS = (Date.now() - startedMs) / 1000;
    await create('withdrawal', 50); // open; funded by the approved deposits

    const res = await dashboard();
    expect(res.status).toBe(200);
    const today = res.body.days[6];
    expect(today.deposit.approvedCount).toBe(2);
    expect(today.deposit.approvedVolume).toBe(350.25);
    expect(today.deposit.medianApprovalSeconds).toBeGreaterThanOrEqual(0);
    // Created just before the approvals: the median cannot exceed the time the test took.
    expect(today.deposit.medianApprovalSeconds).toBeLessThan(elapsedS + 60);
    expect(today.withdrawal).toEqual({ approvedCount: 0, approvedVolume: 0, medianApprovalSeconds: null });
    expect(res.body.pending).toEqual({ deposit: 1, withdrawal: 1 });
    for (const entry of res.body.days.slice(0, 6)) expect(entry.deposit.approvedCount).toBe(0);
  });

  it('takes 1..31 days, refuses anything else, and needs transactions.view', async () => {
    const one = await dashboard('?days=1');
    expect(one.status).toBe(200);
    expect(one.body.days).toHaveLength(1);
    expect(one.body.days[0].deposit.approvedCount).toBe(2);
    expect((await dashboard('?days=31')).body.days).toHaveLength(31);
    for (const bad of ['?days=0', '?days=32', '?days=abc']) {
      expect(await dashboard(bad)).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    }
    expect((await client.get('/panel/dashboard')).status).toBe(401);
    const auditor = (await client.login('auditor1', 'Initial-pass-1')).accessToken;
    expect((await dashboard('', auditor)).status).toBe(200);
    expect((await dashboard('', auditor)).body.pending).toEqual({ deposit: 1, withdrawal: 1 });
  });
});
