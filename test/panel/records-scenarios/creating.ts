import { GATEWAY_SETTINGS } from '@transfergate/gateway-api';
import { checkTurkishIban } from '@transfergate/contracts';
import { LIVE_GATEWAY_SETTINGS } from '../../../services/panel-api/src/settings/live-gateway-settings.js';
import { secretKeysIn, type RecordsFixture } from '../records-fixture.js';

/** An admin creates the records; a provider secret is shown once, then only to whoever may reveal it. */
export function registerCreating(fixture: () => RecordsFixture): void {
  it('the panel writes to the gateway settings object under the gateway token', () => {
    expect(LIVE_GATEWAY_SETTINGS).toBe(GATEWAY_SETTINGS);
  });

  it('an admin creates an infrastructure, a merchant, a provider (secret shown once) and a bank account', async () => {
    const { app, client, admin, ids, secrets, h2hDeposit } = fixture();
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
    const { app, client, admin, ids, secrets } = fixture();
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
}
