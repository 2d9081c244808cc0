import { secretKeysIn, type RecordsFixture } from '../records-fixture.js';

/** Custom roles, and what the gateway accepts once a merchant or provider changes. */
export function registerRolesAndGateway(fixture: () => RecordsFixture): void {
  it('a custom role holds a subset; its operator is refused (403) outside it', async () => {
    const { app, client, admin, ids } = fixture();
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
    const { client, admin, ids, secrets, h2hDeposit } = fixture();
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
    const { client, admin, ids, secrets, h2hDeposit } = fixture();
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

  it('rotate-secret with no overlap answers a new secret once; the old one stops working with the answer', async () => {
    const { client, admin, ids, secrets, h2hDeposit } = fixture();
    // Cached with the old secret first.
    expect((await h2hDeposit(secrets.provider!.apiKey, secrets.provider!.apiSecret, 'BETA-BEFORE')).status).toBe(201);
    const rotated = await client.post('/panel/providers/rotate-secret', { id: ids.provider, overlapSeconds: 0 }, admin);
    expect(rotated).toMatchObject({
      status: 201,
      body: { id: ids.provider, apiKey: secrets.provider!.apiKey, previousSecretValidUntil: null },
    });
    expect(rotated.body.apiSecret).toMatch(/^sk_/);
    expect(rotated.body.apiSecret).not.toBe(secrets.provider!.apiSecret);
    expect((await client.post('/panel/providers/reveal-secret', { id: ids.provider }, admin)).body.apiSecret).toBe(
      rotated.body.apiSecret,
    );
    expect((await h2hDeposit(secrets.provider!.apiKey, secrets.provider!.apiSecret, 'BETA-OLD')).status).toBe(401);
    expect((await h2hDeposit(secrets.provider!.apiKey, rotated.body.apiSecret, 'BETA-NEW')).status).toBe(201);
  });
}
