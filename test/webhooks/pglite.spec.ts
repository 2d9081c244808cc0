import { panelClient } from '../panel/panel-client.js';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { WH_KEYS, gatewayOf, hookOf, logRows, webhookBootstrap } from './webhook-fixture.js';
describe('incoming webhooks on embedded PGlite', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp('pglite');
    await app.provision(issueBootstrap());
    await app.provision(webhookBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('applies a webhook, logs refusals and lists them in the panel', async () => {
    const gateway = gatewayOf(app);
    const hook = hookOf(app);
    const d = await gateway.deposit(WH_KEYS.local);
    await app.settle();
    expect(await hook('deposit/callback/wh-local', { depositId: d.number, status: 'approved' })).toMatchObject({
      status: 201,
      body: { uuid: d.uuid, status: 'approved' },
    });
    expect((await hook('deposit/callback/wh-remote', { depositId: d.number, status: 'approved' })).status).toBe(403);
    expect((await postJson(`${app.baseUrl}/deposit/callback/wh-local`, '{"oops"')).status).toBe(400);
    await logRows(app, 'true', [], 3);
    const client = panelClient(app);
    const admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    const list = await client.get('/api/panel/webhooks', admin);
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { outcome: string; errorCode: string | null }) => [i.outcome, i.errorCode])).toEqual(
      [
        ['refused', 'malformed_json'],
        ['refused', 'ip_not_allowed'],
        ['applied', null],
      ],
    );
    const detail = await client.get(`/panel/webhooks/${list.body.items[0].id}`, admin);
    expect(detail.body).toMatchObject({ rawText: '{"oops"', body: null });
  });
});
