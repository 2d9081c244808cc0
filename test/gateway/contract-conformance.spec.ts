import { startTestApp, type TestApp } from '../support/test-app.js';
import { KEYS, VALID_IBAN, conformanceBootstrap, h2hBody, infraFields, sha256 } from './conformance-fixture.js';

/**
 * One test per row of the contract's Gateway table (paths, methods, success statuses, every
 * response field name), each path bare and under /api, over real HTTP on PostgreSQL.
 */
const PREFIXES = ['', '/api'];
const sorted = (o: object) => Object.keys(o).sort();

describe('gateway contract conformance on PostgreSQL', () => {
  let app: TestApp;
  let n = 0;
  const id = (p: string) => `${p}-${++n}-${Date.now()}`;

  async function call(
    method: string,
    path: string,
    options: { body?: unknown; query?: Record<string, string | number>; headers?: Record<string, string> } = {},
  ) {
    const url = new URL(`${app.baseUrl}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const response = await fetch(url, {
      method,
      headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
      ...(options.body !== undefined
        ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
        : {}),
    });
    const text = await response.text();
    let body: Record<string, unknown>;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = { raw: text };
    }
    return { status: response.status, body, headers: response.headers };
  }
  const merchantHeaders = { 'x-api-key': KEYS.merchant.apiKey, 'x-api-secret': KEYS.merchant.apiSecret };

  beforeAll(async () => {
    app = await startTestApp('postgres', { testAuthEnabled: true });
    await app.provision(conformanceBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  describe.each(PREFIXES)('prefix "%s"', (prefix) => {
    it('POST /deposit/bank → 201 H2H deposit response', async () => {
      const tx = id('H2HD');
      const res = await call('POST', `${prefix}/deposit/bank`, { body: h2hBody(KEYS.h2h, tx, 250) });
      expect(res.status).toBe(201);
      expect(sorted(res.body)).toEqual([
        'account_iban',
        'account_name',
        'code',
        'fast',
        'id',
        'message',
        'status',
        'transaction_id',
      ]);
      expect(res.body).toMatchObject({
        status: true,
        code: 200,
        id: tx,
        transaction_id: tx,
        account_name: 'Transfer Ltd',
      });
    });

    it('POST /withdrawal/bank → 201 H2H withdrawal response with an integer id', async () => {
      const tx = id('H2HW');
      const res = await call('POST', `${prefix}/withdrawal/bank`, {
        body: h2hBody(KEYS.h2h, tx, 300, { iban: VALID_IBAN }),
      });
      expect(res.status).toBe(201);
      expect(sorted(res.body)).toEqual(['code', 'id', 'message', 'status', 'transaction_id']);
      expect(res.body).toMatchObject({ status: true, code: 200, transaction_id: tx });
      expect(Number.isInteger(res.body.id)).toBe(true);
      expect(String(res.body.message)).toMatch(/callback/i);
    });

    it.each(['GET', 'POST'])(
      '%s /deposits/deposit-request → 200 with paymentLink, requestId, operationGuidBack',
      async (method) => {
        const tx = id('INFD');
        const fields = infraFields(tx, '125.50', { CustomerFullName: 'Mehmet Demir' });
        const res =
          method === 'GET'
            ? await call('GET', `${prefix}/deposits/deposit-request`, { query: fields })
            : await call('POST', `${prefix}/deposits/deposit-request`, { body: fields });
        expect(res.status).toBe(200);
        expect(sorted(res.body)).toEqual(['data', 'message', 'success']);
        expect(sorted(res.body.data as object)).toEqual(['operationGuidBack', 'paymentLink', 'requestId']);
        expect(res.body.data).toMatchObject({ requestId: tx, operationGuidBack: fields.OperationGuid });
        expect(String((res.body.data as Record<string, string>).paymentLink)).toMatch(
          new RegExp(`^${app.baseUrl}/payment/[A-Za-z0-9_-]{22,}$`),
        );
      },
    );

    it('the infrastructure deposit accepts CustomerUsername instead of CustomerFullName', async () => {
      const res = await call('POST', `${prefix}/deposits/deposit-request`, {
        body: infraFields(id('INFU'), 80, { CustomerUsername: 'mehmet42' }),
      });
      expect(res.status).toBe(200);
      const missing = await call('POST', `${prefix}/deposits/deposit-request`, { body: infraFields(id('INFN'), 80) });
      expect(missing).toMatchObject({ status: 400, body: { success: false, errorCode: 'validation_failed' } });
    });

    it.each(['GET', 'POST'])('%s /withdraws/withdraw-request → 200 PascalCase acknowledgement', async (method) => {
      const tx = id('INFW');
      const fields = infraFields(tx, 90, { CustomerFullName: 'Mehmet Demir', AccountNumber: VALID_IBAN });
      const res =
        method === 'GET'
          ? await call('GET', `${prefix}/withdraws/withdraw-request`, { query: fields })
          : await call('POST', `${prefix}/withdraws/withdraw-request`, { body: fields });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ Success: true, Message: expect.any(String), OperationGuidBack: fields.OperationGuid });
    });

    it.each(['POST', 'GET', 'PUT', 'PATCH', 'DELETE'])(
      '%s /deposit (Merchant API) → 200 with the payment page URL',
      async (method) => {
        const tx = id('MD');
        const fields = {
          transactionId: tx,
          amount: 150,
          name: 'Zeynep',
          surname: 'Kaya',
          username: 'zeynep',
          callback: 'https://merchant.example/cb',
        };
        const res =
          method === 'GET' || method === 'DELETE'
            ? await call(method, `${prefix}/deposit`, { query: fields, headers: merchantHeaders })
            : await call(method, `${prefix}/deposit`, { body: fields, headers: merchantHeaders });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ success: true, data: { transactionId: tx } });
        expect(sorted(res.body.data as object)).toEqual(['id', 'paymentUrl', 'transactionId']);
        expect(String((res.body.data as Record<string, string>).paymentUrl)).toMatch(/\/payment\/[A-Za-z0-9_-]{22,}$/);
      },
    );

    it.each(['POST', 'PUT'])('%s /withdrawal (Merchant API) → 200 queued acknowledgement', async (method) => {
      const tx = id('MW');
      const res = await call(method, `${prefix}/withdrawal`, {
        body: { transactionId: tx, amount: 75, iban: VALID_IBAN, fullname: 'Zeynep Kaya' },
        headers: merchantHeaders,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, data: { transactionId: tx, status: 'pending' } });
    });

    it('POST / (single endpoint) → 201 for deposit, withdraw and checkStatus', async () => {
      const path = prefix === '' ? '/' : '/api';
      const tx = id('SD');
      const deposit = await call('POST', path, {
        body: {
          method: 'deposit',
          transactionId: tx,
          amount: 60,
          username: 'ali',
          ApiKey: KEYS.merchant.apiKey,
          ApiSecret: KEYS.merchant.apiSecret,
        },
      });
      expect(deposit.status).toBe(201);
      expect(deposit.body).toMatchObject({ success: true, data: { transactionId: tx } });
      const withdraw = await call('POST', path, {
        body: {
          method: 'withdraw',
          transactionId: id('SW'),
          amount: 60,
          iban: VALID_IBAN,
          name: 'Ali',
          surname: 'Veli',
          apiKey: KEYS.merchant.apiKey,
          apiSecret: KEYS.merchant.apiSecret,
        },
      });
      expect(withdraw.status).toBe(201);
      expect(withdraw.body).toMatchObject({ success: true, data: { status: 'pending' } });
      const status = await call('POST', path, {
        body: { method: 'checkStatus', transactionId: tx },
        headers: merchantHeaders,
      });
      expect(status.status).toBe(201);
      expect(status.body).toMatchObject({
        success: true,
        transactionId: tx,
        type: 'deposit',
        status: 'awaiting_payment',
        amount: 60,
      });
      // checkStatus takes the same `by` as /status: the number alone is an external id nobody sent.
      const byNumberUnasked = await call('POST', path, {
        body: { method: 'checkStatus', transactionId: String(status.body.id) },
        headers: merchantHeaders,
      });
      expect(byNumberUnasked).toMatchObject({ status: 404, body: { errorCode: 'transaction_not_found' } });
      const byNumber = await call('POST', path, {
        body: { method: 'checkStatus', transactionId: String(status.body.id), by: 'id' },
        headers: merchantHeaders,
      });
      expect(byNumber).toMatchObject({ status: 201, body: { transactionId: tx, uuid: status.body.uuid } });
      const unknown = await call('POST', path, {
        body: { method: 'refund', transactionId: tx },
        headers: merchantHeaders,
      });
      expect(unknown).toMatchObject({ status: 400, body: { success: false, errorCode: 'validation_failed' } });
    });

    it('POST /status/{identifier} → 201 transaction status', async () => {
      const tx = id('ST');
      await call('POST', `${prefix}/deposit/bank`, { body: h2hBody(KEYS.h2h, tx, 99.99) });
      const res = await call('POST', `${prefix}/status/${tx}`, {
        headers: { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
      });
      expect(res.status).toBe(201);
      expect(sorted(res.body)).toEqual([
        'amount',
        'createdAt',
        'currency',
        'id',
        'originalAmount',
        'status',
        'success',
        'transactionId',
        'type',
        'updatedAt',
        'uuid',
      ]);
      expect(res.body).toMatchObject({ transactionId: tx, amount: 99.99, status: 'awaiting_payment' });
    });

    it('GET /banks → 200 banks with an active receiving account', async () => {
      const res = await call('GET', `${prefix}/banks`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: [
          { id: '00062', name: 'Garanti BBVA', code: '00062', fast: false },
          { id: '00061', name: 'Ziraat Bankası', code: '00061', fast: true },
        ],
      });
    });

    it.each(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'SEARCH'])(
      '%s /test-auth → 200 credential test',
      async (method) => {
        const res = await call(method, `${prefix}/test-auth`, {
          headers: { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
        });
        expect(res.status).toBe(200);
        if (method !== 'HEAD') {
          expect(res.body).toEqual({ success: true, providerId: expect.any(Number), providerName: 'conf-h2h' });
        }
        const wrong = await call(method, `${prefix}/test-auth`, {
          headers: { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': 'nope' },
        });
        expect(wrong.status).toBe(401);
        if (method !== 'HEAD')
          expect(wrong.body).toMatchObject({ success: false, message: expect.stringMatching(/invalid.*credentials/i) });
      },
    );

    it('GET / → 200 health, GET /eqopay/health → 200 module health', async () => {
      expect((await call('GET', prefix === '' ? '/' : '/api')).body).toMatchObject({ status: 'ok' });
      const module = await call('GET', `${prefix}/eqopay/health`);
      expect(module).toMatchObject({ status: 200, body: { status: 'ok', module: 'eqopay', database: 'ok' } });
    });
  });

  describe('credentials', () => {
    it('accepts ApiKey/apiKey/x-api-key and ApiSecret/apiSecret/x-api-secret in body, query, headers, and HTTP Basic', async () => {
      const { apiKey, apiSecret } = KEYS.merchant;
      const ways: Array<{
        body?: Record<string, unknown>;
        query?: Record<string, string>;
        headers?: Record<string, string>;
      }> = [
        { body: { ApiKey: apiKey, ApiSecret: apiSecret } },
        { body: { apiKey, apiSecret } },
        { query: { ApiKey: apiKey, ApiSecret: apiSecret } },
        { query: { apiKey, apiSecret } },
        { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } },
        { headers: { authorization: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}` } },
      ];
      for (const way of ways) {
        const res = await call('POST', '/deposit', {
          ...way,
          body: { ...way.body, transactionId: id('CRED'), amount: 20, username: 'u' },
        });
        expect({ way, status: res.status }).toEqual({ way, status: 200 });
      }
      const none = await call('POST', '/deposit', { body: { transactionId: id('CRED'), amount: 20, username: 'u' } });
      expect(none).toMatchObject({ status: 401, body: { success: false, errorCode: 'invalid_credentials' } });
    });

    it('refuses a caller outside the provider IP allow-list (403) and a disabled provider (403)', async () => {
      const locked = await call('POST', '/deposit/bank', { body: h2hBody(KEYS.ipLocked, id('IP'), 100) });
      expect(locked).toMatchObject({ status: 403, body: { status: false, errorCode: 'ip_not_allowed' } });
      const disabled = await call('POST', '/deposit/bank', { body: h2hBody(KEYS.disabled, id('DIS'), 100) });
      expect(disabled).toMatchObject({ status: 403, body: { status: false, errorCode: 'provider_disabled' } });
    });

    it('checks the signature before anything about the key: a wrong hash never answers 403', async () => {
      const wrongHash = (key: { apiKey: string; apiSecret: string }, tx: string) => ({
        ...h2hBody(key, tx, 100),
        hash: '0'.repeat(64),
      });
      for (const key of [KEYS.ipLocked, KEYS.disabled, KEYS.merchant]) {
        const res = await call('POST', '/deposit/bank', { body: wrongHash(key, id('SIG')) });
        expect([key.apiKey, res.status, res.body.errorCode]).toEqual([key.apiKey, 401, 'invalid_signature']);
      }
      const infra = await call('POST', '/deposits/deposit-request', {
        body: { ...infraFields(id('SIGI'), 50, { CustomerFullName: 'Ali Veli' }), ApiKey: KEYS.h2h.apiKey },
      });
      expect([infra.status, infra.body.errorCode]).toEqual([401, 'invalid_signature']);
    });

    it('refuses an endpoint of another API form (403 form_not_enabled)', async () => {
      const res = await call('POST', '/deposit', {
        body: { transactionId: id('FORM'), amount: 20, username: 'u' },
        headers: { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
      });
      expect(res).toMatchObject({ status: 403, body: { success: false, errorCode: 'form_not_enabled' } });
    });
  });

  describe('signature rules: valid, wrong, upper-case hex', () => {
    it('Merchant API optional hash', async () => {
      const { apiKey, apiSecret } = KEYS.merchant;
      const send = (tx: string, hash: string) =>
        call('POST', '/deposit', {
          body: { transactionId: tx, amount: 10.5, username: 'u', hash },
          headers: merchantHeaders,
        });
      const tx1 = id('MH');
      expect((await send(tx1, sha256(`${apiKey}${tx1}${apiSecret}11`))).status).toBe(200);
      const tx2 = id('MH');
      expect((await send(tx2, sha256(`${apiKey}${tx2}${apiSecret}11`).toUpperCase())).status).toBe(200);
      const tx3 = id('MH');
      expect(await send(tx3, sha256(`${apiKey}${tx3}${apiSecret}10`))).toMatchObject({
        status: 401,
        body: { success: false, errorCode: 'invalid_signature' },
      });
    });

    it('H2H mandatory hash', async () => {
      const ok = h2hBody(KEYS.h2h, id('HH'), '10.49');
      expect((await call('POST', '/withdrawal/bank', { body: { ...ok, iban: VALID_IBAN } })).status).toBe(201);
      const upper = h2hBody(KEYS.h2h, id('HH'), 33);
      expect((await call('POST', '/deposit/bank', { body: { ...upper, hash: upper.hash.toUpperCase() } })).status).toBe(
        201,
      );
      const wrong = h2hBody({ ...KEYS.h2h, apiSecret: 'other' }, id('HH'), 33);
      expect(await call('POST', '/deposit/bank', { body: wrong })).toMatchObject({
        status: 401,
        body: { status: false, code: 401, errorCode: 'invalid_signature' },
      });
    });

    it('Infrastructure SecurityKey', async () => {
      const ok = infraFields(id('SK'), 40, { CustomerFullName: 'A B' });
      expect(
        (
          await call('POST', '/deposits/deposit-request', {
            body: { ...ok, SecurityKey: ok.SecurityKey.toString().toUpperCase() },
          })
        ).status,
      ).toBe(200);
      const wrong = infraFields(id('SK'), 40, { CustomerFullName: 'A B', AccountNumber: VALID_IBAN });
      const res = await call('POST', '/withdraws/withdraw-request', { body: { ...wrong, SecurityKey: sha256('x') } });
      expect(res).toMatchObject({ status: 401, body: { Success: false, errorCode: 'invalid_signature' } });
    });
  });

  describe('business rules', () => {
    it('withdrawals: invalid IBAN 400, missing recipient 400, past the overdraft limit 422 (nothing reserved)', async () => {
      const bad = await call('POST', '/withdrawal/bank', {
        body: h2hBody(KEYS.h2h, id('WI'), 50, { iban: 'TR330006100519786457841327' }),
      });
      expect(bad).toMatchObject({ status: 400, body: { status: false, errorCode: 'invalid_iban' } });
      const noName = await call('POST', '/withdrawal', {
        body: { transactionId: id('WN'), amount: 50, iban: VALID_IBAN },
        headers: merchantHeaders,
      });
      expect(noName).toMatchObject({ status: 400, body: { success: false, errorCode: 'validation_failed' } });
      const broke = await call('POST', '/withdrawal/bank', {
        body: h2hBody(KEYS.broke, id('WB'), 50, { iban: VALID_IBAN }),
      });
      expect(broke).toMatchObject({
        status: 422,
        body: { status: false, code: 422, errorCode: 'insufficient_balance' },
      });
    });

    it("receiving accounts: the customer's bank first, otherwise spread over the accounts that fit", async () => {
      const garanti = await call('POST', '/deposit/bank', {
        body: h2hBody(KEYS.h2h, id('BANK'), 100, { bank_code: '00062' }),
      });
      expect(garanti.body).toMatchObject({ account_iban: 'TR930006200000000006295317', fast: false });
      const ziraat = await call('POST', '/deposit/bank', {
        body: h2hBody(KEYS.h2h, id('BANK'), 100, { bank_code: '00061' }),
      });
      expect(ziraat.body).toMatchObject({ account_iban: 'TR330006100519786457841326', fast: true });
      const badCode = await call('POST', '/deposit/bank', {
        body: h2hBody(KEYS.h2h, id('BANK'), 100, { bank_code: 'ziraat' }),
      });
      expect(badCode).toMatchObject({ status: 400, body: { errorCode: 'validation_failed' } });
      const seen = new Set<string>();
      for (let i = 0; i < 6; i++) {
        await app.settle();
        const res = await call('POST', '/deposit/bank', { body: h2hBody(KEYS.h2h, id('SPREAD'), 1000) });
        seen.add(String(res.body.account_iban));
      }
      // Least used (by today's issued volume) first: equal accounts take turns.
      expect(seen).toEqual(new Set(['TR330006100519786457841326', 'TR930006200000000006295317']));
      // Only Ziraat takes 300,000 TRY (Garanti's per-transaction max is 250,000).
      const big = await call('POST', '/deposit/bank', {
        body: h2hBody(KEYS.h2h, id('BANK'), 300000, { bank_code: '00062' }),
      });
      expect(big.body).toMatchObject({ account_iban: 'TR330006100519786457841326' });
    });

    it('a deposit no receiving account can take answers 503 no_receiving_account', async () => {
      const res = await call('POST', '/deposit/bank', { body: h2hBody(KEYS.h2h, id('BIG'), 600000) });
      expect(res).toMatchObject({ status: 503, body: { status: false, errorCode: 'no_receiving_account' } });
    });

    it('amount outside the merchant limits answers 422 in each form', async () => {
      const h2h = await call('POST', '/deposit/bank', { body: h2hBody(KEYS.h2h, id('LIM'), 5) });
      expect(h2h).toMatchObject({ status: 422, body: { status: false, errorCode: 'amount_out_of_range' } });
      const infra = await call('POST', '/withdraws/withdraw-request', {
        body: infraFields(id('LIM'), 2000000, { CustomerFullName: 'A B', AccountNumber: VALID_IBAN }),
      });
      expect(infra).toMatchObject({ status: 422, body: { Success: false, errorCode: 'amount_out_of_range' } });
    });

    it('/test-auth is 404 unless enabled', async () => {
      app.gatewaySettings.testAuthEnabled = false;
      try {
        const res = await call('GET', '/test-auth', {
          headers: { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
        });
        expect(res).toMatchObject({ status: 404, body: { success: false, errorCode: 'not_found' } });
      } finally {
        app.gatewaySettings.testAuthEnabled = true;
      }
    });
  });
});
