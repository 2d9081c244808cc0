import { h2hHash, kurusFrom } from '@transfergate/contracts';
import { parseBootstrap } from '@transfergate/all-in-one';
import { CallbackReceiver } from '../callbacks/callback-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { Authenticator } from '../support/totp-authenticator.js';

type Merchant = 'acme' | 'beta';
type Role = 'merchant_admin' | 'merchant_developer' | 'merchant_viewer';
const MERCHANTS: Merchant[] = ['acme', 'beta'];
const ROLES: Role[] = ['merchant_admin', 'merchant_developer', 'merchant_viewer'];
const OTHER: Record<Merchant, Merchant> = { acme: 'beta', beta: 'acme' };
const KEYS: Record<Merchant, { apiKey: string; apiSecret: string }> = {
  acme: { apiKey: 'ak_iso_acme', apiSecret: 'sk_iso_acme_secret' },
  beta: { apiKey: 'ak_iso_beta', apiSecret: 'sk_iso_beta_secret' },
};
/** What each role may do in the portal (its permissions, as the built-in merchant roles define them). */
const MAY: Record<Role, { credentials: boolean; callbacks: boolean; users: boolean }> = {
  merchant_admin: { credentials: true, callbacks: true, users: true },
  merchant_developer: { credentials: true, callbacks: true, users: false },
  merchant_viewer: { credentials: false, callbacks: false, users: false },
};

/** What one merchant owns, as the operators' API reports it. */
interface Owned {
  merchantId: string;
  providerId: string;
  transactionId: string;
  transactionNumber: number;
  callbackId: string;
  externalId: string;
}

function bootstrap(receiverBase: string) {
  const merchant = (name: string, key: { apiKey: string; apiSecret: string }) => ({
    name,
    minAmount: 1,
    maxAmount: 100000,
    overdraftLimit: 0,
    providers: [{ name: `${name.toLowerCase()}-h2h`, infrastructure: 'iso', ...key }],
  });
  return parseBootstrap(
    {
      operators: [{ username: 'admin', password: 'S3cure-pass!', role: 'admin' }],
      infrastructures: [
        {
          name: 'Isolation H2H',
          slug: 'iso',
          apiForm: 'h2h',
          callbackFormat: 'h2h',
          callback_deposit: `${receiverBase}/iso/deposit`,
          callback_withdrawal: `${receiverBase}/iso/withdrawal`,
        },
      ],
      merchants: [merchant('Acme', KEYS.acme), merchant('Beta', KEYS.beta)],
      bankAccounts: [
        {
          bank: 'Ziraat Bankası',
          iban: 'TR330006100519786457841326',
          holderName: 'Transfer Ltd',
          minAmount: 1,
          maxAmount: 100000,
          dailyLimit: 100000000,
        },
      ],
    },
    'isolation',
  );
}

/**
 * The merchant portal's isolation, counted: every portal route × every merchant role × both
 * merchants, each asked about its own records and the other merchant's (both directions), plus
 * tampered ids, queries and tokens, operator tokens on portal routes and merchant tokens on every
 * operator route. Real PostgreSQL, real HTTP; the counts are printed.
 */
describe('merchant portal isolation (PostgreSQL)', () => {
  let app: TestApp;
  let receiver: CallbackReceiver;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  const owned = {} as Record<Merchant, Owned>;
  const tokens = {} as Record<Merchant, Record<Role, string>>;
  const counts = new Map<string, number>();
  const count = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    // One attempt per callback: a refused one is failed at once (the recovery scenario needs one).
    app = await startTestApp('postgres', {
      callbacks: { retryScheduleMs: [0], requestTimeoutMs: 2_000, leaseMs: 5_000, pollIntervalMs: 100 },
    });
    await app.provision(bootstrap(receiver.base));
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    const merchants = (await client.get('/panel/merchants', admin)).body.items as Array<{ id: string; name: string }>;
    const providers = (await client.get('/panel/providers', admin)).body.items as Array<{ id: string; name: string }>;
    for (const m of MERCHANTS) {
      const externalId = `ISO-${m}-${Date.now()}`;
      const key = KEYS[m];
      const created = await postJson(`${app.baseUrl}/deposit/bank`, {
        apikey: key.apiKey,
        transaction_id: externalId,
        amount: 100,
        fullname: 'Ayşe Yılmaz',
        hash: h2hHash(key.apiKey, externalId, key.apiSecret, kurusFrom(100)),
      });
      expect(created.status).toBe(201);
      const status = await postJson(
        `${app.baseUrl}/status/${externalId}`,
        {},
        { 'x-api-key': key.apiKey, 'x-api-secret': key.apiSecret },
      );
      const transactionId = String(status.body.uuid);
      expect((await client.post('/panel/deposit/approve', { id: transactionId }, admin)).status).toBe(201);
      await receiver.waitFor(() => receiver.received.find((r) => r.body.transactionId === externalId));
      const callbacks = await client.get(`/panel/callbacks?transactionId=${transactionId}`, admin);
      owned[m] = {
        merchantId: merchants.find((x) => x.name.toLowerCase() === m)!.id,
        providerId: providers.find((x) => x.name === `${m}-h2h`)!.id,
        transactionId,
        transactionNumber: Number(status.body.id),
        callbackId: callbacks.body.items[0].id,
        externalId,
      };
    }
    for (const m of MERCHANTS) {
      tokens[m] = {} as Record<Role, string>;
      for (const role of ROLES) tokens[m][role] = await merchantUser(m, role);
    }
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
    if (counts.size > 0) {
      const lines = [...counts].map(([what, n]) => `  ${what.padEnd(58)} ${n}`);
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      // A check is counted once its expectations passed: a crossing fails the suite before it counts.
      console.log(`merchant portal isolation: ${total} checks passed, none crossed merchants\n${lines.join('\n')}`);
    }
  });

  /** Invited by the operator admin; a merchant admin sets up 2FA before its first sign-in. */
  async function merchantUser(m: Merchant, role: Role): Promise<string> {
    const username = `${m}-${role.replace('merchant_', '')}`;
    const invited = await client.post(
      '/panel/merchant-users/invite',
      { merchantId: owned[m].merchantId, username, role },
      admin,
    );
    expect(invited).toMatchObject({
      status: 201,
      body: { record: { username, role, merchantId: owned[m].merchantId } },
    });
    const password = String(invited.body.password);
    await app.settle();
    if (role !== 'merchant_admin') return (await client.login(username, password)).accessToken;
    const refused = await client.post('/api/auth/login', { username, password });
    expect(refused).toMatchObject({ status: 403, body: { errorCode: 'two_factor_setup_required' } });
    const init = await client.post('/api/auth/2fa/setup/init', { username, password });
    const authenticator = Authenticator.of(init.body.otpauthUrl);
    const confirmed = await client.post('/api/auth/2fa/setup/confirm', {
      setupToken: init.body.setupToken,
      code: await authenticator.next(),
    });
    expect(confirmed.status).toBe(201);
    await app.settle();
    const challenge = await client.post('/api/auth/login', { username, password });
    expect(challenge.body.twoFactorRequired).toBe(true);
    const verified = await client.post('/api/auth/2fa/verify', {
      challengeToken: challenge.body.challengeToken,
      code: await authenticator.next(),
    });
    expect(verified.status).toBe(201);
    return String(verified.body.accessToken);
  }

  /**
   * Every portal route, asked by `role` of merchant `m` about `target`'s records: what it answers
   * when the target is its own merchant, and the other's (never its data).
   */
  const ROUTES: Array<{
    name: string;
    allowed: (role: Role) => boolean;
    call: (token: string, target: Owned) => Promise<{ status: number; body: Record<string, unknown> }>;
    /** Own records: the success status and a check that the answer is about the caller's merchant only. */
    own: { status: number; only?: (body: Record<string, unknown>, mine: Owned, theirs: Owned, target: Owned) => void };
    /** The other merchant's records: the status (scoped lists answer 200 with the caller's own data). */
    other: number;
  }> = [
    {
      name: 'GET /portal/me',
      allowed: () => true,
      call: (token) => client.get('/portal/me', token),
      own: { status: 200, only: (body, mine) => expect(body.merchant).toMatchObject({ id: mine.merchantId }) },
      other: 200,
    },
    {
      name: 'GET /portal/balance',
      allowed: () => true,
      call: (token) => client.get('/api/portal/balance', token),
      own: { status: 200, only: (body) => expect(body).toMatchObject({ currency: 'TRY', balance: 100 }) },
      other: 200,
    },
    {
      name: 'GET /portal/transactions (?merchantId=, ?providerId= tampered)',
      allowed: () => true,
      call: (token, target) =>
        client.get(`/portal/transactions?merchantId=${target.merchantId}&providerId=${target.providerId}`, token),
      own: {
        status: 200,
        only: (body, mine, theirs) => {
          const ids = (body.items as Array<{ id: string }>).map((t) => t.id);
          expect(ids).toContain(mine.transactionId);
          expect(ids).not.toContain(theirs.transactionId);
          expect(JSON.stringify(body)).not.toMatch(/bankAccount|assignee|infrastructureId/);
        },
      },
      other: 200,
    },
    {
      name: 'GET /portal/transactions?q=<external id>',
      allowed: () => true,
      call: (token, target) => client.get(`/portal/transactions?q=${encodeURIComponent(target.externalId)}`, token),
      own: {
        status: 200,
        only: (body, mine, _theirs, target) => expect(body.items).toHaveLength(target === mine ? 1 : 0),
      },
      other: 200,
    },
    {
      name: 'GET /portal/transactions/:uuid',
      allowed: () => true,
      call: (token, target) => client.get(`/portal/transactions/${target.transactionId}`, token),
      own: {
        status: 200,
        only: (body, mine) => {
          expect(body).toMatchObject({ id: mine.transactionId, callbacks: [{ id: mine.callbackId }] });
          expect(JSON.stringify(body)).not.toMatch(/requestedBy|actor|"ip"|bankAccount/);
        },
      },
      other: 404,
    },
    {
      name: 'GET /portal/transactions/:number',
      allowed: () => true,
      call: (token, target) => client.get(`/portal/transactions/${target.transactionNumber}`, token),
      own: { status: 200 },
      other: 404,
    },
    {
      name: 'GET /portal/providers',
      allowed: () => true,
      call: (token) => client.get('/portal/providers', token),
      own: {
        status: 200,
        only: (body, mine) => {
          expect((body.items as Array<{ id: string }>).map((p) => p.id)).toEqual([mine.providerId]);
          expect(JSON.stringify(body)).not.toMatch(/apiSecret"|Sealed/);
        },
      },
      other: 200,
    },
    {
      name: 'POST /portal/providers/rotate-secret',
      allowed: (role) => MAY[role].credentials,
      call: (token, target) => client.post('/portal/providers/rotate-secret', { id: target.providerId }, token),
      own: { status: 201, only: (body, mine) => expect(body).toMatchObject({ id: mine.providerId }) },
      other: 404,
    },
    {
      name: 'POST /portal/providers/end-secret-overlap',
      allowed: (role) => MAY[role].credentials,
      call: (token, target) => client.post('/portal/providers/end-secret-overlap', { id: target.providerId }, token),
      own: { status: 201 },
      other: 404,
    },
    {
      name: 'POST /portal/providers/callback-urls',
      allowed: (role) => MAY[role].credentials,
      call: (token, target) =>
        client.post(
          '/portal/providers/callback-urls',
          // The infrastructure's own URLs: what the scenarios below expect callbacks at.
          {
            id: target.providerId,
            callbackDeposit: `${receiver.base}/iso/deposit`,
            callbackWithdrawal: `${receiver.base}/iso/withdrawal`,
          },
          token,
        ),
      own: { status: 201, only: (body, mine) => expect(body).toMatchObject({ record: { id: mine.providerId } }) },
      other: 404,
    },
    {
      name: 'POST /portal/callbacks/resend (callback id)',
      allowed: (role) => MAY[role].callbacks,
      call: (token, target) => client.post('/portal/callbacks/resend', { id: target.callbackId }, token),
      own: { status: 201, only: (body, mine) => expect(body).toMatchObject({ id: mine.callbackId }) },
      other: 404,
    },
    {
      name: 'POST /portal/callbacks/resend (transaction number)',
      allowed: (role) => MAY[role].callbacks,
      call: (token, target) => client.post('/portal/callbacks/resend', { id: target.transactionNumber }, token),
      own: { status: 201 },
      other: 404,
    },
    {
      name: 'POST /portal/callbacks/recover (the last hour)',
      allowed: (role) => MAY[role].callbacks,
      call: (token) =>
        client.post(
          '/portal/callbacks/recover',
          { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() },
          token,
        ),
      // Nothing failed here: the recovery resends nothing, and never another merchant's.
      own: { status: 201, only: (body) => expect(body).toMatchObject({ requested: 0, callbacks: [] }) },
      other: 201,
    },
    {
      name: 'GET /portal/users',
      allowed: (role) => MAY[role].users,
      call: (token) => client.get('/portal/users', token),
      own: {
        status: 200,
        only: (body, mine) => {
          const names = (body.items as Array<{ username: string }>).map((u) => u.username);
          expect(names.every((name) => name.startsWith(`${mine === owned.acme ? 'acme' : 'beta'}-`))).toBe(true);
        },
      },
      other: 200,
    },
    {
      name: 'POST /portal/users/invite (?merchantId tampered)',
      allowed: (role) => MAY[role].users,
      call: (token, target) =>
        client.post(
          '/portal/users/invite',
          {
            username: `inv-${Math.random().toString(36).slice(2, 10)}`,
            role: 'merchant_viewer',
            merchantId: target.merchantId,
          },
          token,
        ),
      own: { status: 201 },
      // The merchantId of the body is not read: the invitation lands in the inviter's own merchant.
      other: 201,
    },
  ];

  it('every portal route × every merchant role × both merchants, both directions: nothing crosses', async () => {
    for (const m of MERCHANTS) {
      for (const role of ROLES) {
        for (const route of ROUTES) {
          for (const direction of ['own', 'other'] as const) {
            const target = direction === 'own' ? owned[m] : owned[OTHER[m]];
            const answer = await route.call(tokens[m][role], target);
            const expected = !route.allowed(role) ? 403 : direction === 'own' ? route.own.status : route.other;
            expect({ route: route.name, m, role, direction, status: answer.status }).toEqual({
              route: route.name,
              m,
              role,
              direction,
              status: expected,
            });
            if (expected < 300) {
              // Whatever the target, a scoped answer is about the caller's merchant only.
              route.own.only?.(answer.body, owned[m], owned[OTHER[m]], target);
              expect(JSON.stringify(answer.body)).not.toContain(owned[OTHER[m]].transactionId);
              expect(JSON.stringify(answer.body)).not.toContain(owned[OTHER[m]].providerId);
              if (route.name.startsWith('POST /portal/users/invite')) {
                expect(answer.body.record).toMatchObject({ merchantId: owned[m].merchantId });
              }
            }
            count(`${route.name} ${direction}`);
          }
        }
      }
    }
  }, 180_000);

  it("recovers the merchant's failed callbacks in a range: one audit entry, never another merchant's", async () => {
    const startedAt = new Date(Date.now() - 1_000).toISOString();
    receiver.script('/iso/deposit', (_request, response) => {
      response.writeHead(500);
      response.end('down');
    });
    const externalId = `ISO-acme-failing-${Date.now()}`;
    // The routes above rotated the secret: the merchant admin rotates once more and uses the answer.
    const rotated = await client.post(
      '/portal/providers/rotate-secret',
      { id: owned.acme.providerId, overlapSeconds: 0 },
      tokens.acme.merchant_admin,
    );
    // The projection has the new secret (answers wait for it up to 5 s; this machine may be slower).
    await app.settle();
    const key = { apiKey: KEYS.acme.apiKey, apiSecret: String(rotated.body.apiSecret) };
    expect(
      (
        await postJson(`${app.baseUrl}/deposit/bank`, {
          apikey: key.apiKey,
          transaction_id: externalId,
          amount: 50,
          fullname: 'Ayşe Yılmaz',
          hash: h2hHash(key.apiKey, externalId, key.apiSecret, kurusFrom(50)),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await client.post(
          '/panel/deposit/approve',
          { id: (await client.get(`/panel/transactions?q=${externalId}`, admin)).body.items[0].id },
          admin,
        )
      ).status,
    ).toBe(201);
    const failed = async () => {
      for (let waitedMs = 0; waitedMs < 15_000; waitedMs += 100) {
        const item = (await client.get(`/panel/callbacks?transactionId=${externalId}`, admin)).body.items[0];
        if (item?.state === 'failed') return item as { id: string };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the callback did not fail');
    };
    const delivery = await failed();
    const range = { from: startedAt, to: new Date(Date.now() + 60_000).toISOString() };
    // The other merchant's recovery over the same range does not touch it.
    const beta = await client.post('/portal/callbacks/recover', range, tokens.beta.merchant_developer);
    expect(beta).toMatchObject({ status: 201, body: { requested: 0, callbacks: [] } });
    const acme = await client.post('/portal/callbacks/recover', range, tokens.acme.merchant_developer);
    expect(acme).toMatchObject({ status: 201, body: { requested: 1, callbacks: [{ id: delivery.id }] } });
    await receiver.waitFor(() => receiver.received.filter((r) => r.body.transactionId === externalId).length === 2);
    const audit = await client.get('/panel/audit?type=CallbacksRecoveryRequested', admin);
    const developerId = (await client.get('/api/auth/me', tokens.acme.merchant_developer)).body.id;
    expect(audit.body.items).toEqual([
      expect.objectContaining({ actor: developerId, after: expect.objectContaining({ deliveryIds: [delivery.id] }) }),
    ]);
    for (const bad of [
      { from: range.to, to: range.from },
      { from: '2026-01-01T00:00:00Z', to: '2026-01-09T00:00:00Z' },
      { from: 'yesterday', to: range.to },
    ]) {
      expect((await client.post('/portal/callbacks/recover', bad, tokens.acme.merchant_admin)).status).toBe(400);
      count('tampered body (400)');
    }
    count('recovery scoped to its merchant');
  });

  it("edits the merchant's own callback URLs: the egress policy applies, the next callback goes there", async () => {
    const token = tokens.acme.merchant_developer;
    const refused = await client.post(
      '/portal/providers/callback-urls',
      { id: owned.acme.providerId, callbackDeposit: 'http://169.254.169.254/latest', callbackWithdrawal: null },
      token,
    );
    expect(refused).toMatchObject({ status: 400, body: { errorCode: 'callback_url_refused' } });
    const set = await client.post(
      '/portal/providers/callback-urls',
      { id: owned.acme.providerId, callbackDeposit: `${receiver.base}/acme-own/deposit`, callbackWithdrawal: null },
      token,
    );
    expect(set).toMatchObject({
      status: 201,
      body: {
        changed: true,
        record: { callbackDeposit: `${receiver.base}/acme-own/deposit`, callbackWithdrawal: null },
      },
    });
    const rotated = await client.post(
      '/portal/providers/rotate-secret',
      { id: owned.acme.providerId, overlapSeconds: 0 },
      tokens.acme.merchant_admin,
    );
    // The projection has the new secret (answers wait for it up to 5 s; this machine may be slower).
    await app.settle();
    const key = { apiKey: KEYS.acme.apiKey, apiSecret: String(rotated.body.apiSecret) };
    const externalId = `ISO-acme-own-url-${Date.now()}`;
    const created = await postJson(`${app.baseUrl}/deposit/bank`, {
      apikey: key.apiKey,
      transaction_id: externalId,
      amount: 20,
      fullname: 'Ayşe Yılmaz',
      hash: h2hHash(key.apiKey, externalId, key.apiSecret, kurusFrom(20)),
    });
    expect(created.status).toBe(201);
    const id = (await client.get(`/panel/transactions?q=${externalId}`, admin)).body.items[0].id;
    expect((await client.post('/panel/deposit/approve', { id }, admin)).status).toBe(201);
    const arrived = await receiver.waitFor(() => receiver.received.find((r) => r.body.transactionId === externalId));
    expect(arrived.path).toBe('/acme-own/deposit');
    // Beta's callbacks still go to the infrastructure's URL, and null gives Acme the infrastructure's back.
    expect((await client.get('/portal/providers', tokens.beta.merchant_viewer)).body.items[0]).toMatchObject({
      callbackDeposit: `${receiver.base}/iso/deposit`,
    });
    const cleared = await client.post(
      '/portal/providers/callback-urls',
      { id: owned.acme.providerId, callbackDeposit: null, callbackWithdrawal: null },
      token,
    );
    expect(cleared).toMatchObject({ status: 201, body: { record: { callbackDeposit: null } } });
    count('callback URLs scoped to its merchant');
  });

  it('tampered ids: malformed, unknown and the other merchant look the same (404), never a 500', async () => {
    const token = tokens.acme.merchant_admin;
    const probes: Array<[string, string, unknown?]> = [
      ['GET', '/portal/transactions/not-a-uuid'],
      ['GET', '/portal/transactions/00000000-0000-4000-8000-000000000000'],
      ['GET', '/portal/transactions/999999999'],
      ['GET', `/portal/transactions/${owned.beta.transactionId.toUpperCase()}`],
      ['POST', '/portal/providers/rotate-secret', { id: '00000000-0000-4000-8000-000000000000' }],
      ['POST', '/portal/callbacks/resend', { id: '00000000-0000-4000-8000-000000000000' }],
      ['POST', '/portal/callbacks/resend', { id: owned.beta.transactionId }],
    ];
    for (const [method, path, body] of probes) {
      const answer = await client.call(method, path, body, token);
      expect({ path, body, status: answer.status }).toEqual({ path, body, status: 404 });
      count('tampered id');
    }
    for (const body of [{ id: 'x' }, {}, { id: owned.acme.providerId, overlapSeconds: -5 }]) {
      expect((await client.post('/portal/providers/rotate-secret', body, token)).status).toBe(400);
      count('tampered body (400)');
    }
  });

  it('tampered tokens: none, garbage, a forged signature or payload are refused (401) on every portal route', async () => {
    const [header, payload, signature] = tokens.acme.merchant_viewer.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const otherId = (await client.get('/api/auth/me', tokens.beta.merchant_admin)).body.id;
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: otherId, operatorId: otherId })).toString(
      'base64url',
    );
    const bad = [
      undefined,
      'garbage',
      `${header}.${payload}.${signature.slice(0, -2)}AA`,
      `${header}.${forgedPayload}.${signature}`,
    ];
    for (const route of ROUTES) {
      for (const token of bad) {
        const answer = await route.call(token as string, owned.acme);
        expect({ route: route.name, status: answer.status }).toEqual({ route: route.name, status: 401 });
        count('tampered token (401)');
      }
    }
  });

  it('an operator, even admin, has no portal; a merchant user reaches no operator route', async () => {
    for (const route of ROUTES) {
      const answer = await route.call(admin, owned.acme);
      expect({ route: route.name, status: answer.status }).toEqual({ route: route.name, status: 403 });
      count('operator token on a portal route (403)');
    }
    const panelRoutes = app.routes
      .filter((r) => /^\/(api\/)?panel\//.test(r.url) && r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => ({ method: r.method, url: r.url.replace(/:[A-Za-z]+/g, owned.acme.transactionId) }));
    expect(panelRoutes.length).toBeGreaterThan(50);
    for (const route of panelRoutes) {
      for (const m of MERCHANTS) {
        const answer = await client.call(
          route.method,
          route.url,
          route.method === 'GET' ? undefined : {},
          tokens[m].merchant_admin,
        );
        expect({ route, status: answer.status }).toEqual({ route, status: 403 });
        count('merchant admin on an operator route (403)');
      }
    }
  });

  it('a merchant admin keeps 2FA and cannot reach across by changing roles; the audit log names the merchant users', async () => {
    const disable = await client.post(
      '/api/auth/2fa/disable',
      { password: 'x', code: '000000' },
      tokens.acme.merchant_admin,
    );
    expect(disable).toMatchObject({ status: 403, body: { errorCode: 'permission_denied' } });
    const acmeAdmin = (await client.get('/api/auth/me', tokens.acme.merchant_admin)).body;
    expect(acmeAdmin).toMatchObject({
      role: 'merchant_admin',
      merchantId: owned.acme.merchantId,
      twoFactorEnabled: true,
    });
    // An operator cannot turn a merchant user into an operator, nor give an operator a merchant role.
    const crossed = await client.post('/panel/operators/save', { username: 'acme-viewer', role: 'admin' }, admin);
    expect(crossed).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
    const invited = await client.post(
      '/panel/merchant-users/invite',
      { merchantId: owned.acme.merchantId, username: 'admin', role: 'merchant_viewer' },
      admin,
    );
    expect(invited).toMatchObject({ status: 409, body: { errorCode: 'already_exists' } });
    expect((await client.post('/panel/roles/save', { name: 'merchant_admin', permissions: [] }, admin)).status).toBe(
      400,
    );
    // What merchant users change is in the operators' audit log, with who did it.
    const rotated = await client.post(
      '/portal/providers/rotate-secret',
      { id: owned.acme.providerId, overlapSeconds: 60 },
      tokens.acme.merchant_admin,
    );
    expect(rotated).toMatchObject({ status: 201, body: { record: { previousSecretValidUntil: expect.any(String) } } });
    const audit = await client.get('/panel/audit?type=ProviderConfigured&limit=100', admin);
    const actors = new Set((audit.body.items as Array<{ actor: string | null }>).map((entry) => entry.actor));
    expect(actors).toContain(acmeAdmin.id);
  });
});
