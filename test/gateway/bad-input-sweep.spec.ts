import { startTestApp, type TestApp } from '../support/test-app.js';
import { KEYS, VALID_IBAN, conformanceBootstrap, h2hBody, infraFields } from './conformance-fixture.js';

/**
 * Hostile and broken input on every form: never a 500, always the form's error shape with a stable
 * errorCode, and never a transaction written.
 */
type Shape = 'h2h' | 'camel' | 'pascal';
const ENDPOINTS: Array<{
  path: string;
  shape: Shape;
  valid: () => Record<string, unknown>;
  headers?: Record<string, string>;
}> = [
  { path: '/deposit/bank', shape: 'h2h', valid: () => h2hBody(KEYS.h2h, `S-${Math.random()}`, 100) },
  {
    path: '/withdrawal/bank',
    shape: 'h2h',
    valid: () => h2hBody(KEYS.h2h, `S-${Math.random()}`, 100, { iban: VALID_IBAN }),
  },
  {
    path: '/deposits/deposit-request',
    shape: 'camel',
    valid: () => infraFields(`S-${Math.random()}`, 100, { CustomerFullName: 'A B' }),
  },
  {
    path: '/withdraws/withdraw-request',
    shape: 'pascal',
    valid: () => infraFields(`S-${Math.random()}`, 100, { CustomerFullName: 'A B', AccountNumber: VALID_IBAN }),
  },
  {
    path: '/deposit',
    shape: 'camel',
    valid: () => ({ transactionId: `S-${Math.random()}`, amount: 100, username: 'u' }),
    headers: { 'x-api-key': KEYS.merchant.apiKey, 'x-api-secret': KEYS.merchant.apiSecret },
  },
  {
    path: '/withdrawal',
    shape: 'camel',
    valid: () => ({ transactionId: `S-${Math.random()}`, amount: 100, iban: VALID_IBAN, fullname: 'A B' }),
    headers: { 'x-api-key': KEYS.merchant.apiKey, 'x-api-secret': KEYS.merchant.apiSecret },
  },
  {
    path: '/',
    shape: 'camel',
    valid: () => ({ method: 'deposit', transactionId: `S-${Math.random()}`, amount: 100, username: 'u' }),
    headers: { 'x-api-key': KEYS.merchant.apiKey, 'x-api-secret': KEYS.merchant.apiSecret },
  },
];

const NAME_FIELDS = ['fullname', 'CustomerFullName', 'username'];
const AMOUNT_FIELDS = ['amount', 'Amount'];

function mutate(body: Record<string, unknown>, field: 'amount' | 'name', value: unknown) {
  const copy = { ...body };
  for (const key of field === 'amount' ? AMOUNT_FIELDS : NAME_FIELDS) if (key in copy) copy[key] = value;
  return copy;
}

describe('bad-input sweep over every form (PostgreSQL)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('postgres', { bodyLimitBytes: 256 * 1024 });
    await app.provision(conformanceBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  const count = async () => {
    await app.settle();
    return Number((await app.db.query<{ n: string }>('select count(*)::text n from rm_transactions')).rows[0]!.n);
  };

  it.each(ENDPOINTS)(
    'POST $path refuses bad input in its own shape and writes nothing',
    async ({ path, shape, valid, headers }) => {
      const before = await count();
      const payloads: Array<[string, string | Record<string, unknown>, number[]]> = [
        ['malformed JSON', '{"amount": 1,', [400]],
        ['JSON array', '[1,2,3]', [400]],
        ['JSON string', '"deposit"', [400]],
        ['JSON null', 'null', [400]],
        ['empty object', {}, [400, 401]],
        ['amount as object', mutate(valid(), 'amount', { $gt: 0 }), [400]],
        ['amount with 3 decimals', mutate(valid(), 'amount', '10.001'), [400]],
        ['negative amount', mutate(valid(), 'amount', -100), [400]],
        ['zero amount', mutate(valid(), 'amount', 0), [400]],
        ['amount 1e400', mutate(valid(), 'amount', '1e400'), [400]],
        ['name as number', mutate(valid(), 'name', 12345), [400]],
        ['name as array', mutate(valid(), 'name', ['a']), [400]],
        ['1 MB body', { ...valid(), padding: 'x'.repeat(1024 * 1024) }, [413]],
        [
          'SQL text in name, bad signature',
          { ...mutate(valid(), 'name', "x'); DROP TABLE es_events; --"), hash: 'bad', SecurityKey: 'bad', 'x-bad': 1 },
          [400, 401],
        ],
        [
          'script text in name, bad signature',
          { ...mutate(valid(), 'name', '<script>alert(1)</script>'), hash: 'bad', SecurityKey: 'bad' },
          [400, 401],
        ],
        ['control characters', mutate(valid(), 'name', '\u0000\u0007\u001b[31m'), [200, 201, 400, 401]],
      ];
      for (const [label, payload, allowed] of payloads) {
        const response = await fetch(`${app.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: typeof payload === 'string' ? payload : JSON.stringify(payload),
        });
        const text = await response.text();
        expect({ label, status: response.status, allowed: allowed.includes(response.status) }).toEqual({
          label,
          status: response.status,
          allowed: true,
        });
        if (response.status >= 400) {
          const body = JSON.parse(text);
          expect(typeof body.errorCode).toBe('string');
          if (shape === 'h2h') expect(body).toMatchObject({ status: false, code: response.status });
          if (shape === 'camel') expect(body.success).toBe(false);
          if (shape === 'pascal') expect(body.Success).toBe(false);
          expect(text).not.toMatch(/at \S+ \(|node_modules|stack/i);
        }
      }
      // The control-character case may legitimately create one transaction (names are stored as given).
      expect((await count()) - before).toBeLessThanOrEqual(1);
    },
  );

  it.each(ENDPOINTS)(
    'POST $path names a missing or mistyped field in words, in its own shape',
    async ({ path, shape, valid, headers }) => {
      const idField = ['transaction_id', 'RequestId', 'transactionId'].find((field) => field in valid())!;
      const post = async (body: Record<string, unknown>) => {
        const response = await fetch(`${app.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
        const json = (await response.json()) as Record<string, unknown>;
        return {
          status: response.status,
          body: json,
          message: String(shape === 'pascal' ? json.Message : json.message),
        };
      };
      const missing = valid();
      delete missing[idField];
      const answer = await post(missing);
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('validation_failed');
      expect(answer.message).toContain(`${idField} is required`);
      const mistyped = await post({ ...valid(), [idField]: 12 });
      expect(mistyped.status).toBe(400);
      expect(mistyped.message).toContain(`${idField} must be a string`);
      for (const { message } of [answer, mistyped]) {
        expect(message).not.toMatch(/Invalid input|expected \w+, received|Too small|Too big/);
      }
    },
  );

  it('a known path with a wrong method is 405 with Allow, in the form shape; an unknown path stays 404', async () => {
    const cases: Array<[string, string, string, Shape]> = [
      ['GET', '/deposit/bank', 'POST', 'h2h'],
      ['PUT', '/withdrawal/bank', 'POST', 'h2h'],
      ['DELETE', '/withdraws/withdraw-request', 'GET, HEAD, POST', 'pascal'],
      ['PATCH', '/status/SOME-TX', 'POST', 'camel'],
      ['GET', '/deposit/callback/some-slug', 'POST', 'camel'],
    ];
    for (const [method, path, allow, shape] of cases) {
      const response = await fetch(`${app.baseUrl}${path}`, { method });
      const body = (await response.json()) as Record<string, unknown>;
      expect({ path, method, status: response.status, allow: response.headers.get('allow') }).toEqual({
        path,
        method,
        status: 405,
        allow,
      });
      expect(body.errorCode).toBe('method_not_allowed');
      if (shape === 'h2h') expect(body).toMatchObject({ status: false, code: 405 });
      if (shape === 'camel') expect(body.success).toBe(false);
      if (shape === 'pascal') expect(body.Success).toBe(false);
    }
    // GET and HEAD on a GET route, a path nobody registered, and a 404 a route itself answers.
    const banks = await fetch(`${app.baseUrl}/banks`, { method: 'POST' });
    expect(banks.headers.get('allow')).toMatch(/^GET, HEAD/);
    expect(banks.status).toBe(405);
    const unknown = await fetch(`${app.baseUrl}/no-such-path`, { method: 'DELETE' });
    expect([unknown.status, unknown.headers.get('allow')]).toEqual([404, null]);
    const noTransaction = await fetch(`${app.baseUrl}/status/NO-SUCH-TX`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
      body: '{}',
    });
    expect(noTransaction.status).toBe(404);
  });

  it('unicode and right-to-left names are accepted and stored exactly', async () => {
    const name = 'مريم العربية ‏Çağrı Öztürk ĞğİıŞş 🚀';
    const tx = `UNI-${Date.now()}`;
    const res = await fetch(`${app.baseUrl}/deposit/bank`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...h2hBody(KEYS.h2h, tx, 100), fullname: name }),
    });
    expect(res.status).toBe(201);
    await app.settle();
    const { rows } = await app.db.query<{ name: string }>(
      `select customer->>'fullName' name from rm_transactions where external_id = $1`,
      [tx],
    );
    expect(rows[0]!.name).toBe(name);
  });
});

describe('per-provider rate limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('pglite', { rateLimitPerMinute: 5 });
    await app.provision(conformanceBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 429 rate_limited in the form shape with Retry-After once a provider passes its limit; others are unaffected', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 7; i++) {
      last = await fetch(`${app.baseUrl}/deposit/bank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(h2hBody(KEYS.h2h, `RL-${i}-${Date.now()}`, 100)),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await last!.json()).toMatchObject({ status: false, code: 429, errorCode: 'rate_limited' });
    const other = await fetch(`${app.baseUrl}/deposits/deposit-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(infraFields(`RL-OTHER-${Date.now()}`, 100, { CustomerFullName: 'A B' })),
    });
    expect(other.status).toBe(200);
  });
});
