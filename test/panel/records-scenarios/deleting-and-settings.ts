import { DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS } from '@transfergate/contracts';
import { ApiSettingsService } from '../../../services/panel-api/src/settings/api-settings.service.js';
import type { RecordsFixture } from '../records-fixture.js';

/** Soft delete and restore, and the API settings as the gateway applies them. */
export function registerDeletingAndSettings(fixture: () => RecordsFixture): void {
  it('delete is soft: the record leaves the lists unless includeDeleted, and save restores it', async () => {
    const { app, client, admin, ids } = fixture();
    const gamma = await client.post('/panel/merchants/save', { name: 'Gamma', minAmount: 5, maxAmount: 500 }, admin);
    const gammaId = gamma.body.record.id as string;
    const provider = await client.post(
      '/panel/providers/save',
      { name: 'gamma-p', merchantId: gammaId, infrastructureId: ids.infra },
      admin,
    );
    const providerId = provider.body.record.id as string;

    expect(await client.post('/panel/providers/delete', { id: providerId }, admin)).toMatchObject({
      status: 201,
      body: { changed: true, record: { deleted: true, active: false } },
    });
    expect(await client.post('/panel/dealers/delete', { id: gammaId }, admin)).toMatchObject({
      status: 201,
      body: { changed: true, record: { deleted: true, active: false } },
    });
    await app.settle();
    const names = async (path: string) =>
      (await client.get(path, admin)).body.items.map((r: { name: string }) => r.name) as string[];
    expect(await names('/panel/merchants')).not.toContain('Gamma');
    expect(await names('/panel/merchants?includeDeleted=true')).toContain('Gamma');
    expect(await names('/panel/providers')).not.toContain('gamma-p');
    expect(await names('/panel/providers?includeDeleted=true')).toContain('gamma-p');
    expect((await client.post('/panel/providers/reveal-secret', { id: providerId }, admin)).status).toBe(404);
    expect((await client.post('/panel/merchants/toggle', { id: gammaId }, admin)).status).toBe(404);

    // Saving the same name again restores the record.
    expect(await client.post('/panel/merchants/save', { name: 'Gamma', active: true }, admin)).toMatchObject({
      status: 201,
      body: { changed: true, record: { deleted: false, active: true, minAmount: 5 } },
    });
    expect(await client.post('/panel/providers/save', { name: 'gamma-p', active: true }, admin)).toMatchObject({
      status: 201,
      body: { changed: true, record: { deleted: false, active: true } },
    });
    expect((await client.get('/panel/merchants/not-an-id', admin)).status).toBe(404);
  });

  it('settings: POST then GET round-trips, applies to the gateway and opens/closes /test-auth', async () => {
    const { app, client, admin, adminId, h2hDeposit } = fixture();
    const testAuth = () =>
      fetch(`${app.baseUrl}/test-auth`, { headers: { 'x-api-key': 'ak_test_1', 'x-api-secret': 'sk_test_1' } });
    const initial = await client.get('/panel/settings/api', admin);
    expect(initial).toMatchObject({
      status: 200,
      body: {
        testAuthEnabled: true,
        depositTtlMinutes: 30,
        callbackRetryScheduleSeconds: [...DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS],
        rateLimitPerMinute: 0,
        stored: false,
      },
    });
    expect((await testAuth()).status).toBe(200);

    const baseUrl = app.gatewaySettings.paymentPageUrl;
    const saved = await client.post(
      '/api/panel/settings/api',
      {
        testAuthEnabled: false,
        payment_page_url: 'https://pay.example.com/',
        depositTtlMinutes: 45,
        callbackRetryScheduleSeconds: [0, 10, 60],
      },
      admin,
    );
    expect(saved).toMatchObject({ status: 201, body: { success: true, changed: true } });
    const read = await client.get('/panel/settings/api', admin);
    expect(read.body).toMatchObject({
      testAuthEnabled: false,
      payment_page_url: 'https://pay.example.com',
      depositTtlMinutes: 45,
      callbackRetryScheduleSeconds: [0, 10, 60],
      rateLimitPerMinute: 0,
      stored: true,
      updatedBy: adminId,
    });
    expect(app.gatewaySettings).toMatchObject({ testAuthEnabled: false, paymentPageUrl: 'https://pay.example.com' });
    expect((await testAuth()).status).toBe(404);
    expect((await client.get('/api/config/settings/public')).body).toMatchObject({
      testAuthEnabled: false,
      payment_page_url: 'https://pay.example.com',
      depositTtlMinutes: 45,
    });

    // The ledger decides new deposits with the stored TTL.
    expect((await h2hDeposit('ak_test_1', 'sk_test_1', 'TTL-45')).status).toBe(201);
    await app.settle();
    const { rows } = await app.db.query<{ minutes: string }>(
      `select round(extract(epoch from expires_at - created_at) / 60)::text minutes
       from rm_transactions where external_id = 'TTL-45'`,
    );
    expect(rows[0]?.minutes).toBe('45');

    // Refused values change nothing.
    expect((await client.post('/panel/settings/api', { depositTtlMinutes: 0 }, admin)).status).toBe(400);
    expect((await client.post('/panel/settings/api', { payment_page_url: 'ftp://x' }, admin)).status).toBe(400);
    expect((await client.post('/panel/settings/api', { callbackRetryScheduleSeconds: [] }, admin)).status).toBe(400);

    // At start-up the stored settings win over whatever the process started with.
    app.gatewaySettings.testAuthEnabled = true;
    await app.app.get(ApiSettingsService).onApplicationBootstrap();
    expect(app.gatewaySettings.testAuthEnabled).toBe(false);

    const reopened = await client.post(
      '/panel/settings/api',
      { testAuthEnabled: true, paymentPageUrl: baseUrl, depositTtlMinutes: 30 },
      admin,
    );
    expect(reopened).toMatchObject({ status: 201, body: { testAuthEnabled: true, payment_page_url: baseUrl } });
    expect((await testAuth()).status).toBe(200);
  });
}
