import { AUDIT_REDACTED } from '@transfergate/contracts';
import { secretKeysIn, type RecordsFixture } from '../records-fixture.js';

/** Public config reads without secrets, the audit of all of the above, and 401 on every route without a token. */
export function registerReadsAndAudit(fixture: () => RecordsFixture): void {
  it('config reads answer 200 without a token and carry no secrets', async () => {
    const { app, client, secrets } = fixture();
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
    const { client, admin, adminId, secrets } = fixture();
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
    const { client } = fixture();
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
}
