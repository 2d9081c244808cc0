import { SignJWT, decodeJwt } from 'jose';
import { issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';
import { KEYS, VALID_IBAN, conformanceBootstrap, h2hBody, infraFields } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';

/**
 * The bad-input and abuse suite (issue #13): hostile text in every string field of every form, in
 * every panel route's body, query and path, and tampered operator tokens. Whatever the input, the
 * answer is a 4xx in the route's error shape, never a 5xx, and nothing is half-written. Text that no
 * legitimate request carries (NUL, unpaired UTF-16 surrogates) is refused with 400 wherever it
 * appears. The case counts are printed so a shrinking sweep shows.
 */

/** Refused wherever they appear: PostgreSQL cannot store them and no real id, name or key has them. */
const UNSTORABLE: Array<[string, string]> = [
  ['lone high surrogate', 'Ay\ud800se'],
  ['lone low surrogate', '\udc00'],
  ['reversed surrogate pair', '\udc00\ud800'],
  ['NUL', 'a\u0000b'],
];

/** Hostile but storable: each must be refused cleanly or accepted as data, never crash anything. */
const HOSTILE: Array<[string, string]> = [
  ['SQL quote', "x' OR '1'='1"],
  ['SQL stacked', "x'); DROP TABLE es_events; --"],
  ['SQL comment', "admin'--"],
  ['SQL union', "' UNION SELECT password_hash FROM rm_operators --"],
  ['NoSQL operator', '{"$gt": ""}'],
  ['script tag', '<script>alert(1)</script>'],
  ['attribute break', '"><img src=x onerror=alert(1)>'],
  ['template', '{{7*7}}${7*7}<%= 7*7 %>'],
  ['path traversal', '../../../../etc/passwd'],
  ['CRLF', 'a\r\nSet-Cookie: x=1'],
  ['format string', '%s%s%s%n%x'],
  ['percent-encoded NUL', '%00'],
  ['valid surrogate pair', 'Çağrı 🚀 Öztürk'],
  ['right-to-left', 'مريم\u202eexe.txt'],
  ['zero-width', 'a\u200b\u200d\ufeffb'],
  ['long text', 'x'.repeat(10_000)],
  ['prototype key text', '__proto__'],
  ['empty', ''],
  ['spaces', '   '],
];

type Shape = 'h2h' | 'camel' | 'pascal';
const FORMS: Array<{
  path: string;
  shape: Shape;
  valid: (id: string) => Record<string, unknown>;
  headers?: Record<string, string>;
}> = [
  { path: '/deposit/bank', shape: 'h2h', valid: (id) => h2hBody(KEYS.h2h, id, 100) },
  { path: '/withdrawal/bank', shape: 'h2h', valid: (id) => h2hBody(KEYS.h2h, id, 100, { iban: VALID_IBAN }) },
  {
    path: '/deposits/deposit-request',
    shape: 'camel',
    valid: (id) => infraFields(id, 100, { CustomerFullName: 'Ayşe Yılmaz' }),
  },
  {
    path: '/withdraws/withdraw-request',
    shape: 'pascal',
    valid: (id) => infraFields(id, 100, { CustomerFullName: 'Ayşe Yılmaz', AccountNumber: VALID_IBAN }),
  },
  {
    path: '/deposit',
    shape: 'camel',
    valid: (id) => ({ transactionId: id, amount: 100, username: 'ayse' }),
    headers: { 'x-api-key': KEYS.merchant.apiKey, 'x-api-secret': KEYS.merchant.apiSecret },
  },
  {
    path: '/withdrawal',
    shape: 'camel',
    valid: (id) => ({ transactionId: id, amount: 100, iban: VALID_IBAN, fullname: 'Ayşe Yılmaz' }),
    headers: { 'x-api-key': KEYS.merchant.apiKey, 'x-api-secret': KEYS.merchant.apiSecret },
  },
];

/** Field names the panel's bodies and queries use; a body carries all of them at once. */
const PANEL_FIELDS = [
  'id',
  'ids',
  'transactionId',
  'operatorId',
  'merchantId',
  'providerId',
  'name',
  'username',
  'password',
  'q',
  'search',
  'status',
  'type',
  'reason',
  'note',
  'iban',
  'slug',
  'role',
  'cursor',
  'from',
  'to',
];

/** A URI component; an unpaired surrogate has no UTF-8 form, so it goes as the bytes of one (CESU-8). */
const uriText = (text: string) =>
  encodeURIComponent(text.replace(/[\ud800-\udfff]/g, 'SURROGATE')).replace(/SURROGATE/g, '%ED%A0%80');

/** The fields of a valid request that carry text. */
const stringFields = (form: (typeof FORMS)[number]) =>
  Object.entries(form.valid('probe'))
    .filter(([, value]) => typeof value === 'string')
    .map(([key]) => key);

const counts: Record<string, number> = {};
const count = (what: string) => (counts[what] = (counts[what] ?? 0) + 1);

function expectShape(shape: Shape, status: number, body: Record<string, unknown>) {
  expect(typeof body.errorCode).toBe('string');
  if (shape === 'h2h') expect(body).toMatchObject({ status: false, code: status });
  if (shape === 'camel') expect(body.success).toBe(false);
  if (shape === 'pascal') expect(body.Success).toBe(false);
}

async function send(url: string, method: string, body?: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON (the UI's HTML, for instance): asserted on status only.
  }
  return { status: response.status, body: json, text };
}

describe('bad-input and abuse suite (PostgreSQL)', () => {
  let app: TestApp;
  let adminToken: string;
  const client = () => panelClient(app);

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(conformanceBootstrap());
    await app.provision(issueBootstrap());
    adminToken = (await client().login('admin', 'S3cure-pass!')).accessToken;
  });
  afterAll(async () => {
    await app?.stop();
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(
      `abuse suite: ${total} cases, none answered 5xx\n` +
        Object.entries(counts)
          .map(([what, n]) => `  ${what}: ${n}`)
          .join('\n'),
    );
  });

  const transactions = async () => {
    await app.settle();
    return Number((await app.db.query<{ n: string }>('select count(*)::text n from rm_transactions')).rows[0]!.n);
  };

  it('refuses NUL and unpaired surrogates in every string field of every form with 400 in its shape, writing nothing', async () => {
    const before = await transactions();
    const wrong: string[] = [];
    for (const form of FORMS) {
      for (const field of stringFields(form)) {
        for (const [label, text] of UNSTORABLE) {
          const body = { ...form.valid(`AB-${Math.random()}`), [field]: text };
          const res = await send(`${app.baseUrl}${form.path}`, 'POST', JSON.stringify(body), form.headers);
          count('form fields × unstorable text');
          if (res.status !== 400) wrong.push(`${form.path} ${field} ${label} → ${res.status}`);
          else expectShape(form.shape, 400, res.body);
        }
      }
      // In a field the form does not know, and as a key: the request never reaches the store.
      for (const [label, text] of UNSTORABLE) {
        for (const body of [
          { ...form.valid(`AB-${Math.random()}`), note: text },
          { ...form.valid(`AB-${Math.random()}`), [text]: 'x' },
          { ...form.valid(`AB-${Math.random()}`), nested: { deeper: [text] } },
        ]) {
          const res = await send(`${app.baseUrl}${form.path}`, 'POST', JSON.stringify(body), form.headers);
          count('form extra fields × unstorable text');
          if (res.status !== 400) wrong.push(`${form.path} extra ${label} → ${res.status}`);
          else expectShape(form.shape, 400, res.body);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await transactions()).toBe(before);
  });

  it('answers hostile text in every string field of every form without a 5xx, in its shape', async () => {
    const wrong: string[] = [];
    for (const form of FORMS) {
      for (const field of stringFields(form)) {
        for (const [label, text] of HOSTILE) {
          const body = { ...form.valid(`AB-${Math.random()}`), [field]: text };
          const res = await send(`${app.baseUrl}${form.path}`, 'POST', JSON.stringify(body), form.headers);
          count('form fields × hostile text');
          if (res.status >= 500) wrong.push(`${form.path} ${field} ${label} → ${res.status}`);
          else if (res.status >= 400) expectShape(form.shape, res.status, res.body);
          expect(res.text).not.toMatch(/at \S+ \(|node_modules/);
        }
      }
      for (const raw of ['{"__proto__": {"admin": true}}', '{"constructor": {"prototype": {"x": 1}}}']) {
        const res = await send(`${app.baseUrl}${form.path}`, 'POST', raw, form.headers);
        count('form prototype pollution');
        if (res.status !== 400) wrong.push(`${form.path} ${raw} → ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps incoming webhooks tolerant: unstorable text is logged cleaned, never a 5xx', async () => {
    const wrong: string[] = [];
    for (const path of [
      '/deposit/callback/conf-h2h',
      '/withdrawal/callback/conf-h2h',
      '/api/withdraw/callback/conf-infra',
    ]) {
      for (const [label, text] of [...UNSTORABLE, ...HOSTILE]) {
        const body = JSON.stringify({ transaction_id: text, status: 'approved', note: text, [text]: text });
        const res = await send(`${app.baseUrl}${path}`, 'POST', body);
        count('webhooks × text');
        if (res.status >= 500) wrong.push(`${path} ${label} → ${res.status}`);
        else expect(res.body).toMatchObject({ success: false });
      }
    }
    expect(wrong).toEqual([]);
    const { rows } = await app.db.query<{ n: string }>('select count(*)::text n from wh_log');
    expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(counts['webhooks × text']!);
  });

  const panelRoutes = () =>
    app.routes
      .filter((r) => /^\/(api\/)?panel\//.test(r.url))
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');

  it('answers every panel route with hostile text in its body, query and path without a 5xx', async () => {
    const routes = panelRoutes();
    expect(routes.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    for (const route of routes) {
      for (const [label, text] of [...UNSTORABLE, ...HOSTILE.slice(0, 12)]) {
        const path = route.url.replace(/:[A-Za-z]+/g, uriText(text).slice(0, 200) || 'x');
        const res =
          route.method === 'GET'
            ? await send(
                `${app.baseUrl}${path}?${PANEL_FIELDS.map((f) => `${f}=${uriText(text)}`).join('&')}`,
                'GET',
                undefined,
                { authorization: `Bearer ${adminToken}` },
              )
            : await send(
                `${app.baseUrl}${path}`,
                route.method,
                JSON.stringify(Object.fromEntries(PANEL_FIELDS.map((f) => [f, text]))),
                { authorization: `Bearer ${adminToken}` },
              );
        count('panel routes × text in body, query and path');
        if (res.status >= 500) wrong.push(`${route.method} ${route.url} ${label} → ${res.status}`);
        if (res.status === 401) wrong.push(`${route.method} ${route.url} ${label} ended the admin session`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses NUL and unpaired surrogates in panel queries and bodies with 400', async () => {
    const cases: Array<[string, string, string | undefined]> = [
      ['GET', '/panel/audit?operatorId=%00', undefined],
      ['GET', '/panel/transactions?q=%00', undefined],
      ['POST', '/panel/merchants/save', JSON.stringify({ name: 'M\ud800' })],
      ['POST', '/panel/roles/save', JSON.stringify({ name: 'r\u0000', permissions: [] })],
    ];
    const wrong: string[] = [];
    for (const [method, path, body] of cases) {
      const res = await send(`${app.baseUrl}${path}`, method, body, { authorization: `Bearer ${adminToken}` });
      count('panel unstorable text');
      if (res.status !== 400) wrong.push(`${method} ${path} → ${res.status} ${res.text.slice(0, 200)}`);
      else expect(res.body).toMatchObject({ success: false, errorCode: 'validation_failed' });
    }
    expect(wrong).toEqual([]);
  });

  it('refuses tampered, forged, expired and malformed operator tokens with 401', async () => {
    const good = adminToken;
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const claims = decodeJwt(good);
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const tokens: Array<[string, string]> = [
      ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`],
      ['payload changed', `${header}.${b64({ ...claims, role: 'admin', sub: 'someone-else' })}.${signature}`],
      ['signature dropped', `${header}.${payload}.`],
      ['signature of another token', `${header}.${payload}.${signature.split('').reverse().join('')}`],
      [
        'signed with a guessed key',
        await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('secret')),
      ],
      [
        'expired',
        await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
          .setProtectedHeader({ alg: 'HS256' })
          .sign(new TextEncoder().encode('secret')),
      ],
      ['garbage', 'not.a.token'],
      ['empty', ''],
      ['NUL', 'a\u0000b'],
      ['huge', 'a'.repeat(8_000)],
    ];
    const wrong: string[] = [];
    for (const [label, token] of tokens) {
      for (const path of ['/api/auth/me', '/panel/transactions', '/panel/operators', '/panel/audit']) {
        const res = await fetch(`${app.baseUrl}${path}`, {
          headers: { authorization: `Bearer ${token.split('\u0000').join('%00')}` },
        });
        count('panel tokens tampered');
        if (res.status !== 401) wrong.push(`${label} ${path} → ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
    // The genuine token still works: the sweep above refused tokens, not the session.
    expect((await client().get('/api/auth/me', good)).status).toBe(200);
  });
});
