import { randomUUID } from 'node:crypto';
import { Agent, request as undiciRequest } from 'undici';
import { issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';
import { KEYS, conformanceBootstrap, h2hBody, infraFields, sha256 } from '../gateway/conformance-fixture.js';
import { logRows } from '../webhooks/webhook-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { buildZip, workbookEntries } from '../support/zip-bomb.js';
import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { Authenticator } from '../support/totp-authenticator.js';

/**
 * More of the bad-input and abuse suite (abuse.spec.ts), counted the same way: attacks on the
 * gateway's request budgets from real source addresses in parallel, zip bombs as bank statements,
 * credentials in webhook bodies of every notation, IPv6 forms that embed internal IPv4 addresses as
 * callback targets. The case counts are printed so a shrinking sweep shows.
 */
const counts: Record<string, number> = {};
const count = (what: string, n = 1) => (counts[what] = (counts[what] ?? 0) + n);

afterAll(() => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(
    `abuse suite (hardening): ${total} cases, none answered 5xx\n` +
      Object.entries(counts)
        .map(([what, n]) => `  ${what}: ${n}`)
        .join('\n'),
  );
});

/** HTTP from a chosen loopback source address (all of 127.0.0.0/8 is this host's): one caller per address. */
function from(sourceIp: string) {
  const dispatcher = new Agent({ localAddress: sourceIp, connections: 64 });
  return {
    async send(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
      const res = await undiciRequest(url, {
        dispatcher,
        method: (init.method ?? (init.body !== undefined ? 'POST' : 'GET')) as 'GET' | 'POST',
        headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
      const text = await res.body.text();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // asserted on status only
      }
      return { status: res.statusCode, body, retryAfter: res.headers['retry-after'] };
    },
    close: () => dispatcher.close(),
  };
}

type Caller = ReturnType<typeof from>;

/** One API form: a correctly signed request of a key, and the same naming the key without its secret. */
interface Form {
  name: string;
  apiKey: string;
  okStatus: number;
  signed: (caller: Caller, base: string) => ReturnType<Caller['send']>;
  forged: (caller: Caller, base: string, apiKey?: string) => ReturnType<Caller['send']>;
}

const infraQuery = (fields: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();

const FORMS: Form[] = [
  {
    name: 'H2H (POST /deposit/bank)',
    apiKey: KEYS.h2h.apiKey,
    okStatus: 201,
    signed: (c, base) => c.send(`${base}/deposit/bank`, { body: h2hBody(KEYS.h2h, `RL-${randomUUID()}`, 100) }),
    forged: (c, base, apiKey = KEYS.h2h.apiKey) =>
      c.send(`${base}/deposit/bank`, {
        body: { ...h2hBody(KEYS.h2h, `RL-${randomUUID()}`, 100), apikey: apiKey, hash: sha256(randomUUID()) },
      }),
  },
  {
    name: 'Merchant (POST /deposit, secret in headers)',
    apiKey: KEYS.merchant.apiKey,
    okStatus: 200,
    signed: (c, base) =>
      c.send(`${base}/deposit`, {
        body: { transactionId: `RL-${randomUUID()}`, amount: 100, username: 'ayse' },
        headers: { 'x-api-key': KEYS.merchant.apiKey, 'x-api-secret': KEYS.merchant.apiSecret },
      }),
    forged: (c, base, apiKey = KEYS.merchant.apiKey) =>
      c.send(`${base}/deposit`, {
        body: { transactionId: `RL-${randomUUID()}`, amount: 100, username: 'ayse' },
        headers: { 'x-api-key': apiKey, 'x-api-secret': `guess-${randomUUID()}` },
      }),
  },
  {
    name: 'Infrastructure (GET /deposits/deposit-request, ApiKey in the query)',
    apiKey: KEYS.infra.apiKey,
    okStatus: 200,
    signed: (c, base) =>
      c.send(
        `${base}/deposits/deposit-request?${infraQuery(infraFields(`RL-${randomUUID()}`, 100, { CustomerFullName: 'Ayşe Yılmaz' }))}`,
      ),
    forged: (c, base, apiKey = KEYS.infra.apiKey) =>
      c.send(
        `${base}/deposits/deposit-request?${infraQuery({
          ...infraFields(`RL-${randomUUID()}`, 100, { CustomerFullName: 'Ayşe Yılmaz' }),
          ApiKey: apiKey,
          SecurityKey: sha256(randomUUID()),
        })}`,
      ),
  },
];

describe('request budgets: unauthenticated callers cannot spend a merchant quota (PostgreSQL, real parallel HTTP)', () => {
  const LIMIT = 20;
  let app: TestApp;
  const callers: Caller[] = [];
  const caller = (ip: string) => {
    const made = from(ip);
    callers.push(made);
    return made;
  };

  beforeAll(async () => {
    app = await startTestApp('postgres', { rateLimitPerMinute: LIMIT });
    await app.provision(conformanceBootstrap());
  });
  afterAll(async () => {
    await Promise.all(callers.map((c) => c.close()));
    await app?.stop();
  });

  it.each(FORMS.map((form, i) => [form.name, form, i] as const))(
    '%s: 22 forged requests naming the key in parallel leave its merchant its whole quota; the forger gets 429',
    async (_name, form, i) => {
      const attacker = caller(`127.0.0.${10 + i}`);
      const merchant = caller('127.0.0.1');
      const forged = await Promise.all(Array.from({ length: LIMIT + 2 }, () => form.forged(attacker, app.baseUrl)));
      count('forged requests naming a real key', forged.length);
      const statuses = forged.map((r) => r.status);
      expect(statuses.filter((s) => s < 400 || s >= 500)).toEqual([]);
      expect(statuses.filter((s) => s === 429)).toHaveLength(2);
      const refused = forged.find((r) => r.status === 429)!;
      expect(refused.body).toMatchObject({ errorCode: 'rate_limited' });
      expect(String(refused.retryAfter)).toMatch(/^\d+$/);

      // The merchant's whole quota is left: LIMIT signed requests in parallel all pass, the next is 429.
      const own = await Promise.all(Array.from({ length: LIMIT }, () => form.signed(merchant, app.baseUrl)));
      count('signed requests during an attack');
      expect(own.map((r) => r.status)).toEqual(Array.from({ length: LIMIT }, () => form.okStatus));
      const over = await form.signed(merchant, app.baseUrl);
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ errorCode: 'rate_limited' });
    },
  );

  it('40 invented keys from one address in parallel: past the failure budget every one is 429, on every form', async () => {
    for (const [i, form] of FORMS.entries()) {
      const guesser = caller(`127.0.1.${10 + i}`);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, n) => form.forged(guesser, app.baseUrl, `ak_invented_${i}_${n}`)),
      );
      count('invented keys from one address', answers.length);
      const statuses = answers.map((r) => r.status);
      expect([form.name, statuses.filter((s) => s === 429).length]).toEqual([form.name, 40 - LIMIT]);
      expect(statuses.filter((s) => s !== 429 && s !== 401)).toEqual([]);
      // Refused before any check from then on, whatever key it names next.
      expect((await form.forged(guesser, app.baseUrl, 'ak_yet_another')).status).toBe(429);
    }
  });

  it('locks a guessed key against the guessing addresses only, never against its merchant', async () => {
    // A key no other case here has touched (an H2H provider of another merchant).
    const key = KEYS.broke;
    const signed = (c: Caller) =>
      c.send(`${app.baseUrl}/deposit/bank`, { body: h2hBody(key, `RL-${randomUUID()}`, 100) });
    const wrong = (c: Caller) =>
      c.send(`${app.baseUrl}/deposit/bank`, {
        body: { ...h2hBody(key, `RL-${randomUUID()}`, 100), hash: sha256(randomUUID()) },
      });
    // Guesses from many addresses, a few each (under every address's own budget).
    const guessers = Array.from({ length: 6 }, (_, i) => caller(`127.0.2.${10 + i}`));
    const answers = await Promise.all(guessers.flatMap((g) => [wrong(g), wrong(g), wrong(g), wrong(g)]));
    count('guesses of one key from many addresses', answers.length);
    expect(answers.filter((r) => r.status === 429).length).toBe(answers.length - LIMIT);
    // A guessing address that now guesses right is refused; the merchant's own address is not.
    expect((await signed(guessers[0]!)).status).toBe(429);
    expect((await signed(caller('127.0.0.1'))).status).toBe(201);
  });
});

describe('XLSX zip bombs as bank statements (PostgreSQL)', () => {
  let app: TestApp;
  let admin: string;
  let accountId: string;
  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap());
    const client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    const accounts = await client.get('/panel/bank-accounts', admin);
    accountId = (accounts.body.items ?? accounts.body)[0].id;
  });
  afterAll(async () => {
    await app?.stop();
  });

  const upload = async (content: Buffer) => {
    const res = await fetch(
      `${app.baseUrl}/panel/reconciliation/accounts/${accountId}/statements?format=xlsx&preset=is-bankasi`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${admin}` },
        body: content,
      },
    );
    const body = (await res.json()) as Record<string, unknown>;
    return { status: res.status, body };
  };

  it('refuses a 256 MiB bomb, one that lies about its size and one of too high a ratio with 422 naming the bound, without inflating it', async () => {
    const MiB = 1024 * 1024;
    const bombs: Array<[string, Buffer, RegExp]> = [
      [
        '256 MiB sheet',
        await buildZip(workbookEntries({ size: 256 * MiB, prefix: '<worksheet>' })),
        /unpacks to 256 MiB; the limit per entry is 32 MiB/,
      ],
      [
        'lying sheet',
        await buildZip(workbookEntries({ size: 128 * MiB, prefix: '<worksheet>' }, 4_096)),
        /unpacks to more than the 4096 bytes it declares/,
      ],
      [
        'ratio',
        await buildZip(workbookEntries({ size: 16 * MiB, prefix: '<worksheet>' })),
        /times its packed size; the limit is 200 times/,
      ],
    ];
    const rssBefore = process.memoryUsage().rss;
    for (const [label, bomb, bound] of bombs) {
      const res = await upload(bomb);
      count('statement zip bombs');
      expect([label, res.status, res.body.errorCode]).toEqual([label, 422, 'statement_refused']);
      expect(String(res.body.message)).toMatch(bound);
    }
    // The server (this process) never held what the bombs unpack to.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(96 * MiB);
  }, 120_000);
});

describe('credentials in webhook bodies never reach the webhook log (PostgreSQL)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(conformanceBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  const SECRETS = ['s3cr3t-key-1', 'pr1v-key-2', 'pwd-val-3', 'cred-val-4', 'api-secret-5', 'client-s-6'];
  const hook = (contentType: string, body: string, marker: string) =>
    fetch(`${app.baseUrl}/deposit/callback/conf-h2h?m=${marker}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });

  it('blanks credential-named values in JSON, form and XML bodies alike', async () => {
    const [s1, s2, s3, s4, s5, s6] = SECRETS;
    const bodies: Array<[string, string, string]> = [
      [
        'json',
        'application/json',
        JSON.stringify({
          transaction_id: 'WH-JSON',
          status: 'approved',
          secretKey: s1,
          data: { privateKey: s2, pwd: s3, credential: s4, apiSecret: s5, client_secret: s6 },
        }),
      ],
      [
        'form',
        'application/x-www-form-urlencoded',
        `transaction_id=WH-FORM&status=approved&secretKey=${s1}&privateKey=${s2}&pwd=${s3}&credential=${s4}&api_secret=${s5}&client_secret=${s6}`,
      ],
      [
        'xml',
        'application/xml',
        `<?xml version="1.0"?><callback><transaction_id>WH-XML</transaction_id><status>approved</status>` +
          `<secretKey>${s1}</secretKey><ns:privateKey xmlns:ns="urn:x">${s2}</ns:privateKey><pwd><![CDATA[${s3}]]></pwd>` +
          `<auth credential="${s4}"/><apiSecret>${s5}</apiSecret><client_secret>${s6}</client_secret></callback>`,
      ],
    ];
    for (const [label, type, body] of bodies) {
      const res = await hook(type, body, label);
      count('webhook bodies with credentials');
      expect(res.status).toBeLessThan(500);
      const [row] = await logRows(app, 'path = $1 and (raw_text like $2 or body::text like $2)', [
        '/deposit/callback/conf-h2h',
        `%WH-${label.toUpperCase()}%`,
      ]);
      expect(row).toBeDefined();
      const stored = JSON.stringify(row);
      for (const secret of SECRETS) expect([label, stored.includes(secret)]).toEqual([label, false]);
      expect(stored).toContain('[redacted]');
    }
  });
});

describe('callback targets that embed an internal IPv4 address in IPv6 (PostgreSQL)', () => {
  let app: TestApp;
  let admin: string;
  const client = () => panelClient(app);
  beforeAll(async () => {
    // Loopback IPv4 is allow-listed here (as the test app does): its IPv6 embeddings still are not.
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap());
    admin = (await client().login('admin', 'S3cure-pass!')).accessToken;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('refuses ::/96, ::ffff:0:0/96, NAT64 and 6to4 forms when an infrastructure is saved', async () => {
    const urls = [
      'http://[::169.254.169.254]/latest/meta-data/',
      'http://[::7f00:1]:5432/',
      'http://[::10.0.0.1]/cb',
      'http://[::a00:1]/cb',
      'http://[::ffff:0:7f00:1]/cb',
      'http://[64:ff9b::a9fe:a9fe]/cb',
      'http://[2002:7f00:1::1]/cb',
    ];
    for (const url of urls) {
      const saved = await client().post(
        '/panel/infrastructure/save',
        {
          name: 'Embedded',
          slug: 'embedded',
          apiForm: 'h2h',
          callbackFormat: 'h2h',
          callback_deposit: url,
          callback_withdrawal: 'https://callbacks.example.com/wd',
        },
        admin,
      );
      count('callback URLs embedding IPv4 in IPv6');
      expect({ url, status: saved.status, code: saved.body.errorCode }).toEqual({
        url,
        status: 400,
        code: 'callback_url_refused',
      });
      expect(saved.body.message).toMatch(/embeds/);
    }
  });
});

describe('JSON bodies that name a key twice (PostgreSQL)', () => {
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(conformanceBootstrap());
    await app.provision(issueBootstrap());
    admin = (await panelClient(app).login('admin', 'S3cure-pass!')).accessToken;
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** `{...valid, "<key>": <second>}` written as text, so the key really appears twice. */
  const twice = (valid: Record<string, unknown>, key: string, second: unknown) =>
    `${JSON.stringify(valid).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(second)}}`;

  const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('refuses a duplicated money or state field on every form with 400 in its shape, writing nothing', async () => {
    const merchant = { 'x-api-key': KEYS.merchant.apiKey, 'x-api-secret': KEYS.merchant.apiSecret };
    const cases: Array<[string, string, Record<string, string>, (b: Record<string, unknown>) => void]> = [
      [
        '/deposit/bank',
        twice(h2hBody(KEYS.h2h, `DUP-${randomUUID()}`, 10), 'amount', 99999),
        {},
        (b) => expect(b).toMatchObject({ status: false, code: 400 }),
      ],
      [
        '/deposits/deposit-request',
        twice(infraFields(`DUP-${randomUUID()}`, 10, { CustomerFullName: 'Ayşe Yılmaz' }), 'Amount', 99999),
        {},
        (b) => expect(b.Success ?? b.success).toBe(false),
      ],
      [
        '/deposit',
        twice({ transactionId: `DUP-${randomUUID()}`, amount: 10, username: 'ayse' }, 'amount', 99999),
        merchant,
        (b) => expect(b.success).toBe(false),
      ],
      [
        '/deposit',
        `{"transactionId":"DUP-${randomUUID()}","amount":10,"username":"ayse","customer":{"name":"a","name":"b"}}`,
        merchant,
        (b) => expect(b.success).toBe(false),
      ],
      [
        '/deposit/bank',
        twice(h2hBody(KEYS.h2h, `DUP-${randomUUID()}`, 10), '\u0061mount', 99999).replace('\\u0061', '\u0061'),
        {},
        (b) => expect(b).toMatchObject({ status: false, code: 400 }),
      ],
    ];
    const { rows: before } = await app.db.query<{ n: string }>('select count(*)::text n from rm_transactions');
    for (const [path, body, headers, shape] of cases) {
      const res = await post(path, body, headers);
      count('duplicate JSON keys');
      expect([path, body, res.status, res.body.errorCode]).toEqual([path, body, 400, 'validation_failed']);
      expect(String(res.body.message)).toMatch(/appears more than once/);
      shape(res.body);
    }
    await app.settle();
    const { rows: after } = await app.db.query<{ n: string }>('select count(*)::text n from rm_transactions');
    expect(after[0]!.n).toBe(before[0]!.n);
    // The panel too (a state field twice).
    const panel = await post('/panel/merchants/save', '{"name":"Dup","active":true,"active":false}', {
      authorization: `Bearer ${admin}`,
    });
    count('duplicate JSON keys');
    expect(panel).toMatchObject({ status: 400, body: { success: false, errorCode: 'validation_failed' } });
  });
});

describe('a double-clicked two-factor verify (PostgreSQL)', () => {
  let app: TestApp;
  const PASSWORD = 'Initial-pass-1';
  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap());
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: 'tfa-clicks', password: PASSWORD, role: 'operator', active: true },
        { source: 'test' },
      ),
    );
    await app.settle();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('ten parallel verifies of one challenge and code: the first opens the session, the rest answer already used, nobody is locked out', async () => {
    const client = panelClient(app);
    const init = await client.post('/api/auth/2fa/setup/init', { username: 'tfa-clicks', password: PASSWORD });
    const authenticator = Authenticator.of(init.body.otpauthUrl);
    const confirm = await client.post('/api/auth/2fa/setup/confirm', {
      setupToken: init.body.setupToken,
      code: await authenticator.next(),
    });
    expect(confirm.status).toBe(201);
    await app.settle();

    const login = await client.post('/api/auth/login', { username: 'tfa-clicks', password: PASSWORD });
    const challengeToken = login.body.challengeToken as string;
    const code = await authenticator.next();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.post('/api/auth/2fa/verify', { challengeToken, code })),
    );
    count('two-factor double-clicks', answers.length);
    const opened = answers.filter((a) => a.status === 201);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.body.accessToken).toEqual(expect.any(String));
    expect(answers.filter((a) => a.status !== 201).map((a) => [a.status, a.body.errorCode])).toEqual(
      Array.from({ length: 9 }, () => [409, 'two_factor_code_used']),
    );
    // The session that was opened works, and a later click still says so.
    expect((await client.get('/api/auth/me', opened[0]!.body.accessToken)).status).toBe(200);
    expect(await client.post('/api/auth/2fa/verify', { challengeToken, code })).toMatchObject({
      status: 409,
      body: { errorCode: 'two_factor_code_used' },
    });
    // No failure was counted: the next sign-in goes through.
    const again = await client.post('/api/auth/login', { username: 'tfa-clicks', password: PASSWORD });
    const next = await client.post('/api/auth/2fa/verify', {
      challengeToken: again.body.challengeToken,
      code: await authenticator.next(),
    });
    expect(next.status).toBe(201);
  }, 120_000);
});
