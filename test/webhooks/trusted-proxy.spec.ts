import { startTestApp, type TestApp } from '../support/test-app.js';
import { WH_KEYS, gatewayOf, hookOf, logRows, webhookBootstrap } from './webhook-fixture.js';
describe('incoming webhooks behind a trusted proxy (PostgreSQL)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp('postgres', { trustProxy: ['127.0.0.1'] });
    await app.provision(webhookBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('honours X-Forwarded-For from the configured proxy: 10.1.2.3 is allowed for wh-remote', async () => {
    const gateway = gatewayOf(app);
    const hook = hookOf(app);
    const r = await gateway.deposit(WH_KEYS.remote);
    await app.settle();
    // Directly from loopback (the proxy itself) the source is 127.0.0.1: refused.
    expect(await hook('deposit/callback/wh-remote', { transactionId: r.externalId, status: 'approved' })).toMatchObject(
      { status: 403, body: { errorCode: 'ip_not_allowed' } },
    );
    const res = await hook(
      'deposit/callback/wh-remote',
      { transactionId: r.externalId, status: 'approved' },
      { 'x-forwarded-for': '10.1.2.3' },
    );
    expect(res).toMatchObject({ status: 201, body: { success: true, status: 'approved', uuid: r.uuid } });
    expect((await gateway.status(WH_KEYS.remote, r.externalId)).status).toBe('approved');
    const [row] = await logRows(app, 'transaction_id = $1 and outcome = $2', [r.uuid, 'applied']);
    expect(row).toMatchObject({ source_ip: '10.1.2.3', infrastructure_slug: 'wh-remote' });
    expect(row!.headers['x-forwarded-for']).toBe('10.1.2.3');

    // The forwarded client is what counts: 10.9.9.9 through the proxy is refused for wh-remote,
    // and for wh-local (loopback only) a forwarded 10.1.2.3 is refused too.
    const l = await gateway.deposit(WH_KEYS.local);
    await app.settle();
    expect(
      await hook(
        'deposit/callback/wh-local',
        { transactionId: l.externalId, status: 'approved' },
        { 'x-forwarded-for': '10.1.2.3' },
      ),
    ).toMatchObject({ status: 403, body: { errorCode: 'ip_not_allowed' } });
  });
});
