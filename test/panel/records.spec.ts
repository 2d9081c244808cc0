import { GATEWAY_SETTINGS } from '@transfergate/gateway-api';
import {
  AUDIT_REDACTED,
  DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS,
  checkTurkishIban,
  h2hHash,
  kurusFrom,
} from '@transfergate/contracts';
import { ApiSettingsService } from '../../services/panel-api/src/settings/api-settings.service.js';
import { LIVE_GATEWAY_SETTINGS } from '../../services/panel-api/src/settings/live-gateway-settings.js';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { panelClient } from './panel-client.js';

/** Field names that must never appear in a public or list answer. */
const SECRET_KEYS = new Set(['apiSecret', 'apiSecretSealed', 'secret', 'passwordHash', 'password', 'totpSecretSealed']);

function secretKeysIn(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => secretKeysIn(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, field]) => [
    ...(SECRET_KEYS.has(key) ? [`${path}.${key}`] : []),
    ...secretKeysIn(field, `${path}.${key}`),
  ]);
}

describe('back-office records, API settings, config reads and audit over HTTP (PostgreSQL)', () => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let adminId: string;
  const ids: Record<string, string> = {};
  const secrets: Record<string, { apiKey: string; apiSecret: string }> = {};

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap()); // admin / S3cure-pass!
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    adminId = (await client.get('/api/auth/me', admin)).body.id;
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function h2hDeposit(apiKey: string, apiSecret: string, transactionId: string, amount = 100) {
    return postJson(`${app.baseUrl}/deposit/bank`, {
      apikey: apiKey,
      transaction_id: transactionId,
      amount,
      fullname: 'Ayşe Yılmaz',
      hash: h2hHash(apiKey, transactionId, apiSecret, kurusFrom(amount)),
    });
  }

  it('the panel writes to the gateway settings object under the gateway token', () => {
    expect(LIVE_GATEWAY_SETTINGS).toBe(GATEWAY_SETTINGS);
  });

  it('an admin creates an infrastructure, a merchant, a provider (secret shown once) and a bank account', async () => {
    const infra = await client.post(
      '/panel/infrastructure/save',
      {
        name: 'Beta H2H',
        slug: 'beta',
        apiForm: 'h2h',
        callbackFormat: 'h2h',
        callback_deposit: 'http://127.0.0.1:9999/beta/dep',
        callback_withdrawal: 'http://127.0.0.1:9999/beta/wd',
        webhookAllowedIps: ['127.0.0.1/32'],
      },
      admin,
    );
    expect(infra).toMatchObject({ status: 201, body: { success: true, created: true, record: { slug: 'beta' } } });
    ids.infra = infra.body.record.id;
    expect((await client.post('/panel/infrastructure/save', { slug: 'new-one' }, admin)).status).toBe(400);

    const merchant = await client.post(
      '/api/panel/merchants/save',
      {
        name: 'Beta',
        minAmount: 10,
        maxAmount: '50000.50',
        depositCommissionPercent: 2.25,
        withdrawalCommissionPercent: 1,
        overdraftLimit: 0,
      },
      admin,
    );
    expect(merchant).toMatchObject({
      status: 201,
      body: {
        created: true,
        record: { name: 'Beta', active: true, minAmount: 10, maxAmount: 50000.5, depositCommissionPercent: 2.25 },
      },
    });
    ids.merchant = merchant.body.record.id;
    // dealers/* is a synonym; a save changes only the fields it is given.
    const changed = await client.post('/panel/dealers/save', { name: 'Beta', depositCommissionPercent: 2 }, admin);
    expect(changed).toMatchObject({
      status: 201,
      body: { created: false, changed: true, record: { depositCommissionPercent: 2, maxAmount: 50000.5 } },
    });
    expect((await client.post('/panel/merchants/save', { name: 'Beta', minAmount: -1 }, admin)).status).toBe(400);

    const created = await fetch(`${app.baseUrl}/panel/providers/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: JSON.stringify({ name: 'beta-h2h', merchantId: ids.merchant, infrastructureId: ids.infra }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const provider = (await created.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(provider.apiKey).toMatch(/^ak_[0-9a-f]{32}$/);
    expect(provider.apiSecret).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(provider.record).toMatchObject({ name: 'beta-h2h', merchantName: 'Beta', infrastructureSlug: 'beta' });
    expect(secretKeysIn(provider.record)).toEqual([]);
    ids.provider = provider.record.id;
    secrets.provider = { apiKey: provider.apiKey, apiSecret: provider.apiSecret };

    // Never again: not in the record, the list, or a later save.
    const again = await client.post('/panel/providers/save', { name: 'beta-h2h', apiAllowedIps: ['127.0.0.1'] }, admin);
    expect(again).toMatchObject({ status: 201, body: { created: false, changed: true } });
    expect(again.body).not.toHaveProperty('apiSecret');
    const one = await client.get(`/panel/providers/${ids.provider}`, admin);
    const list = await client.get('/api/panel/providers', admin);
    for (const answer of [again, one, list]) {
      expect(secretKeysIn(answer.body)).toEqual([]);
      expect(JSON.stringify(answer.body)).not.toContain(provider.apiSecret);
    }
    expect(one.body).toMatchObject({ apiKey: provider.apiKey, apiAllowedIps: ['127.0.0.1'], active: true });

    const iban = 'TR93 0006 2000 0000 0006 2953 17';
    expect(checkTurkishIban(iban).ok).toBe(true);
    const account = await client.post(
      '/panel/bank-accounts/save',
      { bank: 'Garanti BBVA', iban, holderName: 'Beta Ödeme', minAmount: 1, maxAmount: 100000, dailyLimit: 1000000 },
      admin,
    );
    expect(account).toMatchObject({
      status: 201,
      body: { created: true, record: { iban: 'TR930006200000000006295317', bankCode: '00062', dailyLimit: 1000000 } },
    });
    expect((await client.post('/panel/bank-accounts/save', { iban: 'TR00' }, admin)).body.errorCode).toBe(
      'invalid_iban',
    );
    await app.settle(); // lists read the projections; one record (above) reads its stream
    const accounts = await client.get('/panel/bank-accounts', admin);
    expect(accounts.body.items.map((a: { iban: string }) => a.iban)).toContain('TR930006200000000006295317');

    // The generated credentials work at the gateway.
    expect((await h2hDeposit(provider.apiKey, provider.apiSecret, 'BETA-1')).status).toBe(201);
  });

  it('reveals a secret only with providers.reveal_secret; an operator-role user gets 403', async () => {
    const op = await client.post(
      '/panel/operators/save',
      { username: 'opsuser', password: 'Operator-pass-123', role: 'operator' },
      admin,
    );
    expect(op).toMatchObject({
      status: 201,
      body: { created: true, record: { username: 'opsuser', role: 'operator' } },
    });
    expect(secretKeysIn(op.body)).toEqual([]);
    await app.settle();
    const ops = (await client.login('opsuser', 'Operator-pass-123')).accessToken;
    expect(await client.post('/panel/providers/reveal-secret', { id: ids.provider }, ops)).toMatchObject({
      status: 403,
      body: { errorCode: 'permission_denied' },
    });
    // operator holds providers.view: it sees the provider, not the secret.
    expect((await client.get(`/panel/providers/${ids.provider}`, ops)).status).toBe(200);

    const revealed = await client.post('/panel/providers/reveal-secret', { id: ids.provider }, admin);
    expect(revealed).toMatchObject({
      status: 201,
      body: { id: ids.provider, apiKey: secrets.provider!.apiKey, apiSecret: secrets.provider!.apiSecret },
    });
  });

  it('a custom role holds a subset; its operator is refused (403) outside it', async () => {
    expect((await client.post('/panel/roles/save', { name: 'admin', permissions: [] }, admin)).status).toBe(400);
    expect(
      await client.post('/panel/roles/save', { name: 'bad-role', permissions: ['merchants.view', 'nope.x'] }, admin),
    ).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    const role = await client.post(
      '/panel/roles/save',
      { name: 'records-viewer', permissions: ['providers.view', 'merchants.view'] },
      admin,
    );
    expect(role).toMatchObject({
      status: 201,
      body: { created: true, record: { name: 'records-viewer', permissions: ['merchants.view', 'providers.view'] } },
    });
    const viewer = await client.post(
      '/panel/operators/save',
      { username: 'viewer1', password: 'Viewer-pass-1234', role: 'records-viewer' },
      admin,
    );
    expect(viewer.status).toBe(201);
    ids.viewer = viewer.body.record.id;
    await app.settle();

    const token = (await client.login('viewer1', 'Viewer-pass-1234')).accessToken;
    expect((await client.get('/panel/merchants', token)).status).toBe(200);
    expect((await client.get('/api/panel/providers', token)).status).toBe(200);
    const refused: Array<[string, string, unknown?]> = [
      ['GET', '/panel/bank-accounts'],
      ['GET', '/panel/operators'],
      ['GET', '/panel/roles'],
      ['GET', '/panel/audit'],
      ['GET', '/panel/settings/api'],
      ['POST', '/panel/settings/api', { testAuthEnabled: true }],
      ['POST', '/panel/merchants/save', { name: 'Sneaky', minAmount: 1, maxAmount: 2 }],
      ['POST', '/panel/dealers/toggle', { id: ids.merchant }],
      ['POST', '/panel/providers/reveal-secret', { id: ids.provider }],
      ['POST', '/panel/providers/rotate-secret', { id: ids.provider }],
      ['POST', '/panel/roles/save', { name: 'mine', permissions: ['audit.view'] }],
      ['POST', '/panel/operators/save', { username: 'viewer1', role: 'admin' }],
      ['POST', '/panel/infrastructure/save', { slug: 'beta', name: 'x' }],
    ];
    for (const [method, path, body] of refused) {
      const answer = await client.call(method, path, body, token);
      expect({ path, status: answer.status, code: answer.body.errorCode }).toEqual({
        path,
        status: 403,
        code: 'permission_denied',
      });
    }

    const operators = await client.get('/panel/operators', admin);
    expect(operators.body.items.map((o: { username: string }) => o.username)).toEqual(
      expect.arrayContaining(['admin', 'opsuser', 'viewer1']),
    );
    expect(secretKeysIn(operators.body)).toEqual([]);
    expect(JSON.stringify(operators.body)).not.toContain('scrypt');
    const roles = await client.get('/panel/roles', admin);
    expect(roles.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'admin', builtIn: true }),
        expect.objectContaining({ name: 'records-viewer', builtIn: false }),
      ]),
    );

    // A role still held cannot go; once nobody holds it, it can.
    expect((await client.post('/panel/roles/delete', { name: 'records-viewer' }, admin)).status).toBe(400);
    expect((await client.post('/panel/roles/delete', { name: 'operator' }, admin)).status).toBe(400);
    expect(await client.post('/panel/operators/save', { username: 'viewer1', role: 'auditor' }, admin)).toMatchObject({
      status: 201,
      body: { changed: true, record: { role: 'auditor' } },
    });
    await app.settle();
    expect((await client.post('/panel/roles/delete', { name: 'records-viewer' }, admin)).status).toBe(201);
    expect((await client.get('/panel/roles/records-viewer', admin)).body).toMatchObject({ deleted: true });
    // The role change took effect at once: auditor sees bank accounts now.
    expect((await client.get('/panel/bank-accounts', token)).status).toBe(200);
  });

  it('toggling a merchant off makes the gateway refuse its provider (merchant_disabled) with the answer', async () => {
    const fresh = await client.post(
      '/panel/providers/save',
      { name: 'beta-h2h-2', merchantId: ids.merchant, infrastructureId: ids.infra },
      admin,
    );
    expect(fresh.status).toBe(201);
    ids.provider2 = fresh.body.record.id;
    secrets.provider2 = { apiKey: fresh.body.apiKey, apiSecret: fresh.body.apiSecret };
    // The gateway now holds this provider in its cache, merchant active.
    expect((await h2hDeposit(fresh.body.apiKey, fresh.body.apiSecret, 'BETA-ON-1')).status).toBe(201);
    const off = await client.post('/panel/merchants/toggle', { id: ids.merchant, active: false }, admin);
    expect(off).toMatchObject({ status: 201, body: { changed: true, record: { active: false } } });
    // No wait: the answered change dropped the cached record (the cache lives 5 s otherwise).
    expect(await h2hDeposit(fresh.body.apiKey, fresh.body.apiSecret, 'BETA-OFF-1')).toMatchObject({
      status: 403,
      body: { errorCode: 'merchant_disabled' },
    });
    // Without `active` the toggle flips it back.
    expect(await client.post('/panel/dealers/toggle', { id: ids.merchant }, admin)).toMatchObject({
      status: 201,
      body: { record: { active: true } },
    });
  });

  it('update-providers makes the list the merchant active providers; a deactivated one is refused with the answer', async () => {
    const { apiKey, apiSecret } = secrets.provider2!;
    expect((await h2hDeposit(apiKey, apiSecret, 'BETA-P2-ON')).status).toBe(201); // cached, active
    const answer = await client.post(
      '/panel/merchants/update-providers',
      { id: ids.merchant, providerIds: [ids.provider] },
      admin,
    );
    expect(answer).toMatchObject({ status: 201, body: { changed: true, changedProviders: [ids.provider2] } });
    expect(await h2hDeposit(apiKey, apiSecret, 'BETA-P2-OFF')).toMatchObject({
      status: 403,
      body: { errorCode: 'provider_disabled' },
    });
    expect((await client.get(`/panel/providers/${ids.provider2}`, admin)).body).toMatchObject({ active: false });
    expect((await client.get(`/panel/providers/${ids.provider}`, admin)).body).toMatchObject({ active: true });
  });

  it('rotate-secret answers a new secret once; the old one stops working with the answer', async () => {
    // Cached with the old secret first.
    expect((await h2hDeposit(secrets.provider!.apiKey, secrets.provider!.apiSecret, 'BETA-BEFORE')).status).toBe(201);
    const rotated = await client.post('/panel/providers/rotate-secret', { id: ids.provider }, admin);
    expect(rotated).toMatchObject({ status: 201, body: { id: ids.provider, apiKey: secrets.provider!.apiKey } });
    expect(rotated.body.apiSecret).toMatch(/^sk_/);
    expect(rotated.body.apiSecret).not.toBe(secrets.provider!.apiSecret);
    expect((await client.post('/panel/providers/reveal-secret', { id: ids.provider }, admin)).body.apiSecret).toBe(
      rotated.body.apiSecret,
    );
    expect((await h2hDeposit(secrets.provider!.apiKey, secrets.provider!.apiSecret, 'BETA-OLD')).status).toBe(401);
    expect((await h2hDeposit(secrets.provider!.apiKey, rotated.body.apiSecret, 'BETA-NEW')).status).toBe(201);
  });

  it('delete is soft: the record leaves the lists unless includeDeleted, and save restores it', async () => {
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

  it('config reads answer 200 without a token and carry no secrets', async () => {
    const paths = [
      '/api/config/permissions',
      '/api/config/domains',
      '/api/config/api-security',
      '/api/config/dashboard',
      '/api/config/integrations',
      '/api/config/settings/public',
    ];
    const answers: Record<string, Record<string, unknown>> = {};
    for (const path of paths) {
      const answer = await client.get(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect({ path, secrets: secretKeysIn(answer.body) }).toEqual({ path, secrets: [] });
      const text = JSON.stringify(answer.body);
      for (const forbidden of ['sk_test_1', secrets.provider!.apiSecret, 'scrypt', 'v1.', '127.0.0.1:9999']) {
        expect({ path, leaks: text.includes(forbidden) ? forbidden : null }).toEqual({ path, leaks: null });
      }
      answers[path] = answer.body;
    }
    expect(answers['/api/config/permissions']).toMatchObject({
      permissions: expect.arrayContaining([
        { name: 'providers.reveal_secret', description: 'Reveal a provider API secret' },
      ]),
      builtInRoles: expect.arrayContaining([expect.objectContaining({ name: 'auditor' })]),
    });
    expect(answers['/api/config/domains']).toMatchObject({
      paymentPageUrl: app.gatewaySettings.paymentPageUrl,
      apiBaseUrl: app.baseUrl,
    });
    expect(answers['/api/config/api-security']).toMatchObject({
      testAuthEnabled: true,
      httpBasic: { supported: true },
    });
    const dashboard = answers['/api/config/dashboard'] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(dashboard.deposits.count).toBeGreaterThanOrEqual(3);
    expect(dashboard.deposits.byState.awaiting_payment.volume).toBeGreaterThanOrEqual(300);
    expect(dashboard.queues.depositsAwaitingPayment).toBeGreaterThanOrEqual(3);
    expect(dashboard.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(answers['/api/config/integrations']).toMatchObject({
      items: expect.arrayContaining([
        expect.objectContaining({ slug: 'beta', apiForm: 'h2h', callbackFormat: 'h2h', name: 'Beta H2H' }),
      ]),
    });
  });

  it('audit shows who did what from where, with before/after and secrets redacted', async () => {
    const audit = (query: string) => client.get(`/panel/audit?${query}`, admin);
    const merchants = await audit(`operatorId=${adminId}&type=MerchantConfigured`);
    expect(merchants.status).toBe(200);
    const commission = merchants.body.items.find(
      (e: { changes: string[] | null; after: { name: string } }) =>
        e.after.name === 'Beta' && e.changes?.includes('depositCommissionBp'),
    );
    expect(commission).toMatchObject({
      type: 'MerchantConfigured',
      actor: adminId,
      username: 'admin',
      source: 'panel',
      ip: '127.0.0.1',
      before: { depositCommissionBp: 225 },
      after: { depositCommissionBp: 200 },
      changes: ['depositCommissionBp'],
    });
    expect(commission.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const providers = await audit('type=ProviderConfigured,ProviderDeleted&limit=100');
    const rotation = providers.body.items.find(
      (e: { before: unknown; changes: string[] | null }) => e.before !== null && e.changes?.includes('apiSecretSealed'),
    );
    expect(rotation).toMatchObject({
      before: { apiSecretSealed: AUDIT_REDACTED },
      after: { apiSecretSealed: AUDIT_REDACTED },
      ip: '127.0.0.1',
    });
    const operators = await audit('type=OperatorConfigured&limit=100');
    expect(operators.body.items.length).toBeGreaterThanOrEqual(3);
    expect(
      operators.body.items.every((e: { after: { passwordHash: string } }) => e.after.passwordHash === AUDIT_REDACTED),
    ).toBe(true);
    expect(operators.body.items.some((e: { source: string }) => e.source === 'bootstrap')).toBe(true);
    for (const answer of [merchants, providers, operators]) {
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain('scrypt$');
      expect(text).not.toMatch(/"v1\.[A-Za-z0-9_-]+\./);
      expect(text).not.toContain(secrets.provider!.apiSecret);
    }
    const reveals = await audit('type=ProviderSecretRevealed');
    expect(reveals.body.items.length).toBeGreaterThanOrEqual(2);
    expect(reveals.body.items[0]).toMatchObject({ actor: adminId, ip: '127.0.0.1', source: 'panel' });
    const settings = await audit('type=ApiSettingsConfigured');
    expect(settings.body.items[0]).toMatchObject({ changes: expect.arrayContaining(['testAuthEnabled']) });

    // Keyset pages by global position: no repeats, strictly descending.
    const first = await audit('limit=3');
    expect(first.body.items).toHaveLength(3);
    expect(first.body.nextCursor).toMatch(/^\d+:\d+$/);
    const second = await audit(`limit=3&cursor=${first.body.nextCursor}`);
    const positions = [...first.body.items, ...second.body.items].map((e: { position: string }) =>
      e.position.split(':').map(BigInt),
    );
    for (let i = 1; i < positions.length; i++) {
      const [a, b] = [positions[i - 1]!, positions[i]!];
      expect(a[0]! > b[0]! || (a[0] === b[0] && a[1]! > b[1]!)).toBe(true);
    }
    expect((await audit('from=2999-01-01')).body.items).toEqual([]);
    expect((await audit('cursor=nonsense')).status).toBe(400);
    expect((await audit('limit=100000')).status).toBe(400);
  });

  it('every added route answers 401 without a token', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const routes: Array<[string, string]> = [];
    const add = (method: string, ...paths: string[]) => {
      for (const path of paths) routes.push([method, path], [method, `/api${path}`]);
    };
    for (const base of ['/panel/merchants', '/panel/dealers']) {
      add('GET', base, `${base}/${id}`);
      add('POST', `${base}/save`, `${base}/toggle`, `${base}/update-providers`, `${base}/delete`);
    }
    add('GET', '/panel/providers', `/panel/providers/${id}`);
    add('POST', '/panel/providers/save', '/panel/providers/delete', '/panel/providers/reveal-secret');
    add('POST', '/panel/providers/rotate-secret');
    add('GET', '/panel/infrastructures', `/panel/infrastructures/${id}`, '/panel/infrastructure');
    add('GET', `/panel/infrastructure/${id}`);
    add('POST', '/panel/infrastructure/save', '/panel/infrastructures/save');
    add('GET', '/panel/bank-accounts', `/panel/bank-accounts/${id}`);
    add('POST', '/panel/bank-accounts/save');
    add('GET', '/panel/operators', `/panel/operators/${id}`);
    add('POST', '/panel/operators/save');
    add('GET', '/panel/roles', '/panel/roles/admin');
    add('POST', '/panel/roles/save', '/panel/roles/delete');
    add('GET', '/panel/settings/api');
    add('POST', '/panel/settings/api');
    add('GET', '/panel/audit');
    for (const [method, path] of routes) {
      const answer = await client.call(method, path, method === 'POST' ? { id } : undefined);
      expect({ method, path, status: answer.status, code: answer.body.errorCode }).toEqual({
        method,
        path,
        status: 401,
        code: 'authentication_required',
      });
    }
    expect(routes.length).toBeGreaterThanOrEqual(70);
  });
});
