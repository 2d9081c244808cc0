import { ConfigureOperatorCommand, ConfigureRoleCommand, WebhookLogEntrySchema } from '@transfergate/contracts';
import { postJson, type TestApp } from '../support/test-app.js';
import { eventCount, logRows, startWebhookApp, type WebhookApp, WH_KEYS } from './webhook-fixture.js';

/**
 * Incoming webhooks over real HTTP on PostgreSQL that are refused (status, body, source IP, alias
 * paths) or ignored as repeats, and the webhook log: what it keeps and leaves out, and how the
 * panel lists it. The panel listing reads the webhooks the tests above it sent (a repeat,
 * refusals of each kind), so they stay in this file.
 */
describe('incoming webhooks over HTTP (PostgreSQL): refusals and the webhook log', () => {
  let app: TestApp;
  let gateway: WebhookApp['gateway'];
  let hook: WebhookApp['hook'];
  let client: WebhookApp['client'];
  let admin: string;
  let deposit: WebhookApp['deposit'];
  let withdrawal: WebhookApp['withdrawal'];

  beforeAll(async () => {
    ({ app, gateway, hook, client, admin, deposit, withdrawal } = await startWebhookApp());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('keeps no credential-like body field in the webhook log, at any depth, JSON or not', async () => {
    const d = await deposit();
    const sent = {
      transactionId: d.externalId,
      status: 'confirmed',
      apiSecret: 'sk-live-123',
      SecurityKey: 'abc123securitykey',
      Hash: 'deadbeef',
      auth: { password: 'hunter2-pass', token: 'tok-999', user: 'upstream' },
    };
    expect((await hook('deposit/callback/wh-local', sent)).status).toBe(201);
    const [row] = await logRows(app, 'transaction_id = $1', [d.uuid]);
    expect(row!.body).toEqual({
      transactionId: d.externalId,
      status: 'confirmed',
      apiSecret: '[redacted]',
      SecurityKey: '[redacted]',
      Hash: '[redacted]',
      auth: { password: '[redacted]', token: '[redacted]', user: 'upstream' },
    });
    // A body that is not JSON is kept as text, with the same fields blanked.
    const raw = await fetch(`${app.baseUrl}/deposit/callback/wh-local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"transactionId":"x","password":"hunter2-pass", apiSecret=sk-live-123',
    });
    expect(raw.status).toBe(400);
    const [broken] = await logRows(app, "raw_text like '%transactionId%' and raw_text like '%[redacted]%'");
    expect(broken!.raw_text).not.toContain('hunter2-pass');
    expect(broken!.raw_text).not.toContain('sk-live-123');
  });

  it('a replayed webhook is answered 201 "already approved" and changes nothing', async () => {
    const d = await deposit();
    const body = { transactionId: d.externalId, status: 'success' };
    expect((await hook('deposit/callback/wh-local', body)).status).toBe(201);
    const replay = await hook('deposit/callback/wh-local', body);
    expect(replay).toMatchObject({
      status: 201,
      body: { success: true, message: 'already approved', status: 'approved', uuid: d.uuid },
    });
    // Concurrent repeats too: the ledger decides, one approval only.
    const burst = await Promise.all([1, 2, 3].map(() => hook('deposit/callback/wh-local', body)));
    expect(burst.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(await eventCount(app, d.uuid, 'TransactionApproved')).toBe(1);
    const rows = await logRows(app, 'transaction_id = $1', [d.uuid], 5);
    expect(rows.map((r) => r.outcome).sort()).toEqual([
      'applied',
      'ignored_repeat',
      'ignored_repeat',
      'ignored_repeat',
      'ignored_repeat',
    ]);
    expect(rows[0]!.reason).toBe('already approved');
  });

  it('refuses bad webhooks with the right status, and logs each with the reason', async () => {
    const d = await deposit();
    const w = await withdrawal();
    const cases: [string, string, unknown, number, string][] = [
      [
        'unknown status',
        'deposit/callback/wh-local',
        { transactionId: d.externalId, status: 'pending' },
        422,
        'invalid_state_transition',
      ],
      ['no status', 'deposit/callback/wh-local', { transactionId: d.externalId }, 400, 'validation_failed'],
      ['no id', 'deposit/callback/wh-local', { status: 'approved', foo: 1 }, 400, 'validation_failed'],
      [
        'unknown id',
        'deposit/callback/wh-local',
        { transactionId: 'NOPE-1', status: 'approved' },
        404,
        'transaction_not_found',
      ],
      [
        'withdrawal on the deposit path',
        'deposit/callback/wh-local',
        { transactionId: w.externalId, status: 'approved' },
        422,
        'invalid_state_transition',
      ],
      [
        'deposit on the withdrawal path',
        'withdraw/callback/wh-local',
        { transactionId: d.externalId, status: 'approved' },
        422,
        'invalid_state_transition',
      ],
      ['a JSON array', 'deposit/callback/wh-local', [1, 2], 400, 'validation_failed'],
      ['a JSON string', 'deposit/callback/wh-local', '"approved"', 400, 'validation_failed'],
      [
        'unknown slug',
        'deposit/callback/no-such-infra',
        { transactionId: d.externalId, status: 'approved' },
        404,
        'not_found',
      ],
      [
        'unknown slug under /api',
        'api/withdrawal/callback/nope',
        { transactionId: w.externalId, status: 'approved' },
        404,
        'not_found',
      ],
    ];
    for (const [name, path, body, status, errorCode] of cases) {
      const marker = `case-${name}-${Date.now()}`;
      const res = await hook(path, body, { 'x-test-case': marker });
      expect({ name, status: res.status, body: res.body }).toMatchObject({
        name,
        status,
        body: { success: false, errorCode },
      });
      const [row] = await logRows(app, `headers->>'x-test-case' = $1`, [marker]);
      expect({ name, row }).toMatchObject({
        name,
        row: { outcome: 'refused', error_code: errorCode, http_status: status, reason: res.body.message },
      });
    }
    // Nothing was changed by any of them.
    expect((await gateway.status(WH_KEYS.local, d.externalId)).status).toBe('awaiting_payment');
    expect((await gateway.status(WH_KEYS.local, w.externalId)).status).toBe('pending');
  });

  it('malformed JSON is refused by the body parser (400 malformed_json) and still logged with the raw text', async () => {
    const marker = `garbage-${Date.now()}`;
    const garbage = '{"transactionId": "X-1", "status": "approved",';
    const res = await postJson(`${app.baseUrl}/deposit/callback/wh-local`, garbage, { 'x-test-case': marker });
    expect(res).toMatchObject({ status: 400, body: { success: false, errorCode: 'malformed_json' } });
    const [row] = await logRows(app, `headers->>'x-test-case' = $1`, [marker]);
    expect(row).toMatchObject({
      outcome: 'refused',
      error_code: 'malformed_json',
      http_status: 400,
      slug: 'wh-local',
      kind: 'deposit',
      raw_text: garbage,
      body: null,
    });
    expect(row!.reason).toMatch(/not valid JSON/);

    // A body over the app's limit (256 KiB in tests): 413, logged, stored text cut at the limit.
    const big = `{"transactionId":"X-2","status":"approved","pad":"${'x'.repeat(300 * 1024)}"}`;
    const tooBig = await fetch(`${app.baseUrl}/api/withdraw/callback/wh-local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-case': `${marker}-big` },
      body: big,
    });
    expect(tooBig.status).toBe(413);
    const [bigRow] = await logRows(app, `headers->>'x-test-case' = $1`, [`${marker}-big`]);
    expect(bigRow).toMatchObject({ outcome: 'refused', error_code: 'payload_too_large', http_status: 413 });
    expect((bigRow!.raw_text ?? '').length).toBeLessThanOrEqual(256 * 1024);

    // A text body reaches the handler as a string (Fastify parses text/plain): not an object, 400.
    const text = await fetch(`${app.baseUrl}/deposit/callback/wh-local`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-test-case': `${marker}-text` },
      body: 'status=approved',
    });
    expect(text.status).toBe(400);
    expect(await text.json()).toMatchObject({ success: false, errorCode: 'validation_failed' });
    const [textRow] = await logRows(app, `headers->>'x-test-case' = $1`, [`${marker}-text`]);
    expect(textRow).toMatchObject({
      outcome: 'refused',
      http_status: 400,
      error_code: 'validation_failed',
      reason: 'the webhook body must be a JSON object',
      body: 'status=approved',
    });
  });

  it('refuses source IPs that are not allow-listed (403 ip_not_allowed), logged with the reason', async () => {
    const r = await gateway.deposit(WH_KEYS.remote);
    await app.settle();
    const body = { transactionId: r.externalId, status: 'approved' };
    const refused = await hook('deposit/callback/wh-remote', body, { 'x-test-case': 'ip-1' });
    expect(refused).toMatchObject({ status: 403, body: { success: false, errorCode: 'ip_not_allowed' } });
    expect(String(refused.body.message)).toMatch(/127\.0\.0\.1/);
    // Without a trusted proxy configured, X-Forwarded-For is ignored.
    const spoofed = await hook('deposit/callback/wh-remote', body, {
      'x-forwarded-for': '10.1.2.3',
      'x-test-case': 'ip-2',
    });
    expect(spoofed).toMatchObject({ status: 403, body: { errorCode: 'ip_not_allowed' } });
    for (const marker of ['ip-1', 'ip-2']) {
      const [row] = await logRows(app, `headers->>'x-test-case' = $1`, [marker]);
      expect(row).toMatchObject({
        outcome: 'refused',
        error_code: 'ip_not_allowed',
        source_ip: '127.0.0.1',
        infrastructure_slug: 'wh-remote',
        http_status: 403,
      });
      expect(row!.reason).toMatch(/127\.0\.0\.1 is not allow-listed for infrastructure wh-remote/);
    }
    // An infrastructure without an allow-list takes webhooks from nobody.
    const c = await gateway.deposit(WH_KEYS.closed);
    await app.settle();
    expect(await hook('deposit/callback/wh-closed', { transactionId: c.externalId, status: 'approved' })).toMatchObject(
      {
        status: 403,
        body: { errorCode: 'ip_not_allowed' },
      },
    );
    expect((await gateway.status(WH_KEYS.remote, r.externalId)).status).toBe('awaiting_payment');
    expect((await gateway.status(WH_KEYS.closed, c.externalId)).status).toBe('awaiting_payment');
  });

  it('alias paths are locked to their infrastructure, in both spellings, and never shadow a real slug', async () => {
    const d = await deposit();
    expect(await hook('deposit/callback/eqopay', { transactionId: d.externalId, status: 'approved' })).toMatchObject({
      status: 201,
      body: { uuid: d.uuid, status: 'approved' },
    });
    const w = await withdrawal();
    expect(
      await hook('api/withdrawal/callback/eqo-pay', { transactionId: w.externalId, status: 'approved' }),
    ).toMatchObject({ status: 201, body: { uuid: w.uuid } });
    const [row] = await logRows(app, 'transaction_id = $1', [w.uuid]);
    expect(row).toMatchObject({ slug: 'eqo-pay', infrastructure_slug: 'wh-local', outcome: 'applied' });
    // "wh-remote" is also configured as an alias of wh-local, but the real infrastructure wins.
    const d2 = await deposit();
    expect(
      await hook('deposit/callback/wh-remote', { transactionId: d2.externalId, status: 'approved' }),
    ).toMatchObject({
      status: 403,
      body: { errorCode: 'ip_not_allowed' },
    });
    // Only the configured alias: other words are unknown slugs.
    expect((await hook('deposit/callback/eqopays', { transactionId: d2.externalId, status: 'approved' })).status).toBe(
      404,
    );
  });

  it('a body PostgreSQL cannot hold as jsonb (NUL in a string) is still applied and logged, as text', async () => {
    const w = await withdrawal();
    const res = await hook('withdraw/callback/wh-local', {
      transactionId: w.externalId,
      status: 'declined',
      reason: 'bad\u0000byte',
    });
    expect(res).toMatchObject({ status: 201, body: { status: 'rejected' } });
    await app.settle();
    const { rows } = await app.db.query<{ reason: string }>(
      'select reason from rm_transactions where transaction_id = $1',
      [w.uuid],
    );
    expect(rows[0]!.reason).toBe('bad byte');
    const [row] = await logRows(app, 'transaction_id = $1', [w.uuid]);
    expect(row).toMatchObject({ outcome: 'applied', body: null });
    expect(JSON.parse(row!.raw_text!)).toEqual({
      transactionId: w.externalId,
      status: 'declined',
      reason: 'bad\u0000byte',
    });
  });

  it('keeps credentials out of the stored headers', async () => {
    const d = await deposit();
    await hook(
      'deposit/callback/wh-local',
      { transactionId: d.externalId, status: 'approved' },
      {
        authorization: 'Bearer do-not-store',
        cookie: 'session=do-not-store',
        'x-api-key': 'do-not-store',
        'x-api-secret': 'do-not-store',
        'x-upstream-ref': 'keep-me',
      },
    );
    const [row] = await logRows(app, 'transaction_id = $1', [d.uuid]);
    expect(row!.headers['x-upstream-ref']).toBe('keep-me');
    expect(row!.headers['content-type']).toBe('application/json');
    expect(JSON.stringify(row!.headers)).not.toMatch(/do-not-store/);
  });

  describe('the webhook log in the panel', () => {
    it('answers 401 without a token, bare and under /api', async () => {
      for (const path of ['/panel/webhooks', '/api/panel/webhooks', '/panel/webhooks/1', '/api/panel/webhooks/1']) {
        expect(await client.get(path)).toMatchObject({
          status: 401,
          body: { success: false, errorCode: 'authentication_required' },
        });
      }
    });

    it('needs callbacks.view', async () => {
      await app.commands.execute(
        new ConfigureRoleCommand({ name: 'wh-nosee', permissions: ['transactions.view'] }, { source: 'test' }),
      );
      await app.commands.execute(
        new ConfigureOperatorCommand(
          { username: 'wh-clerk', password: 'Initial-pass-1', role: 'wh-nosee', active: true },
          { source: 'test' },
        ),
      );
      await app.settle();
      const token = (await client.login('wh-clerk', 'Initial-pass-1')).accessToken;
      expect(await client.get('/panel/webhooks', token)).toMatchObject({
        status: 403,
        body: { errorCode: 'permission_denied' },
      });
    });

    it('lists every webhook newest first, refused ones with the reason, with filters and cursor pages', async () => {
      const all = await client.get('/panel/webhooks?limit=200', admin);
      expect(all.status).toBe(200);
      const items = all.body.items as Record<string, unknown>[];
      expect(items.length).toBeGreaterThan(20);
      const ids = items.map((i) => Number(i.id));
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);
      expect(items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ outcome: 'applied', slug: 'wh-local' }),
          expect.objectContaining({ outcome: 'ignored_repeat', reason: 'already approved' }),
          expect.objectContaining({
            outcome: 'refused',
            slug: 'wh-remote',
            errorCode: 'ip_not_allowed',
            reason: expect.stringMatching(/not allow-listed/),
          }),
          expect.objectContaining({ outcome: 'refused', slug: 'no-such-infra', errorCode: 'not_found' }),
          expect.objectContaining({ outcome: 'refused', errorCode: 'malformed_json' }),
        ]),
      );

      for (const prefix of ['/panel', '/api/panel']) {
        const refused = await client.get(`${prefix}/webhooks?outcome=refused&slug=wh-remote`, admin);
        expect(refused.status).toBe(200);
        expect(refused.body.items.length).toBeGreaterThan(0);
        for (const item of refused.body.items) {
          expect(item).toMatchObject({ outcome: 'refused' });
          expect([item.slug, item.infrastructureSlug]).toContain('wh-remote');
        }
      }
      const withdrawals = await client.get('/panel/webhooks?kind=withdrawal&outcome=applied,ignored_repeat', admin);
      expect(withdrawals.body.items.length).toBeGreaterThan(0);
      for (const item of withdrawals.body.items) {
        expect(item.kind).toBe('withdrawal');
        expect(['applied', 'ignored_repeat']).toContain(item.outcome);
      }

      // Cursor pages: disjoint, in order, ending with a null cursor.
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await client.get(`/panel/webhooks?limit=7${cursor ? `&cursor=${cursor}` : ''}`, admin);
        expect(page.status).toBe(200);
        seen.push(...page.body.items.map((i: { id: string }) => i.id));
        cursor = page.body.nextCursor;
        pages++;
      } while (cursor && pages < 100);
      expect(seen).toEqual(items.map((i) => i.id));

      expect(await client.get('/panel/webhooks?outcome=bogus', admin)).toMatchObject({
        status: 400,
        body: { errorCode: 'validation_failed' },
      });
      expect((await client.get('/panel/webhooks?cursor=abc', admin)).status).toBe(400);
    });

    it('shows one webhook with its headers and body; an unknown id is 404', async () => {
      const d = await deposit();
      await hook('deposit/callback/wh-local', { transactionId: d.externalId, status: 'approved', note: 'Çok güzel' });
      const list = await client.get(`/panel/webhooks?transactionId=${d.uuid}`, admin);
      expect(list.body.items).toHaveLength(1);
      const detail = await client.get(`/api/panel/webhooks/${list.body.items[0].id}`, admin);
      expect(detail.status).toBe(200);
      const entry = WebhookLogEntrySchema.parse(detail.body);
      expect(entry).toMatchObject({
        outcome: 'applied',
        transactionId: d.uuid,
        body: { transactionId: d.externalId, status: 'approved', note: 'Çok güzel' },
        rawText: null,
        bodyTruncated: false,
        sourceIp: '127.0.0.1',
        httpStatus: 201,
      });
      expect(entry.headers['content-type']).toBe('application/json');
      for (const id of ['999999999', 'abc', '0']) {
        expect(await client.get(`/panel/webhooks/${id}`, admin)).toMatchObject({
          status: 404,
          body: { errorCode: 'not_found' },
        });
      }
    });
  });
});
