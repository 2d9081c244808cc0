import { createHash } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { chromium } from 'playwright-core';
import { DEMO_BOOTSTRAP, parseBootstrap } from '@transfergate/all-in-one';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';

/** The Gateway table of the contract (Endpoints → Gateway): path, documented methods, success status. */
const GATEWAY_TABLE: [path: string, method: string, status: string][] = [
  ['/deposit/bank', 'post', '201'],
  ['/withdrawal/bank', 'post', '201'],
  ['/deposits/deposit-request', 'get', '200'],
  ['/deposits/deposit-request', 'post', '200'],
  ['/withdraws/withdraw-request', 'get', '200'],
  ['/withdraws/withdraw-request', 'post', '200'],
  ['/deposit', 'post', '200'],
  ['/withdrawal', 'post', '200'],
  ['/', 'post', '201'],
  ['/status/{identifier}', 'post', '201'],
  ['/banks', 'get', '200'],
  ...['get', 'post', 'put', 'delete', 'patch', 'options', 'head'].map(
    (method) => ['/test-auth', method, '200'] as [string, string, string],
  ),
  ['/', 'get', '200'],
  ['/eqopay/health', 'get', '200'],
  // The incoming upstream webhooks (webhook-ingest).
  ['/deposit/callback/{slug}', 'post', '201'],
  ['/withdraw/callback/{slug}', 'post', '201'],
  ['/withdrawal/callback/{slug}', 'post', '201'],
  // The sandbox.
  ['/sandbox/transactions/{identifier}/approve', 'post', '201'],
  ['/sandbox/transactions/{identifier}/reject', 'post', '201'],
];

// The provisioning file of the tests issues these credentials.
const API_KEY = 'ak_test_1';
const API_SECRET = 'sk_test_1';
// The document's examples are signed with the --demo providers' published credentials.
const DEMO = {
  h2h: { apiKey: 'demo_h2h_key', apiSecret: 'demo_h2h_secret' },
  merchant: { apiKey: 'demo_merchant_key', apiSecret: 'demo_merchant_secret' },
  infrastructure: { apiKey: 'demo_infra_key', apiSecret: 'demo_infra_secret' },
};
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('OpenAPI document and API reference over HTTP', () => {
  let app: TestApp;
  let document: Json;

  const get = (path: string) => fetch(`${app.baseUrl}${path}`);
  const resolve = (schema: Json): Json => {
    const ref = schema.$ref as string | undefined;
    return ref ? resolve(document.components.schemas[ref.replace('#/components/schemas/', '')]) : schema;
  };

  beforeAll(async () => {
    app = await startTestApp('pglite');
    await app.provision(issueBootstrap());
    await app.provision(parseBootstrap(DEMO_BOOTSTRAP, '--demo'));
    const response = await get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    document = (await response.json()) as Json;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('GET /openapi.json is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it('GET /api/openapi.json serves the same document', async () => {
    const response = await get('/api/openapi.json');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(document);
  });

  it('names the /api prefix and relative servers', () => {
    expect(document.servers.map((server: Json) => server.url)).toEqual(['/', '/api']);
    expect(document.info.description).toContain('/api');
  });

  it.each(GATEWAY_TABLE)('documents %s %s with success status %s', (path, method, status) => {
    const operation = document.paths[path]?.[method];
    expect(operation).toBeDefined();
    expect(Object.keys(operation.responses)).toContain(status);
  });

  it('documents only routes the gateway serves (no route-level 404 for any documented operation)', async () => {
    const calls: [string, string][] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      // A provisioned slug: an unknown one is a 404 not_found the webhook route answers itself.
      const url = path.replace('{identifier}', 'NO-SUCH-TX').replace('{slug}', 'acme');
      for (const method of Object.keys(item).filter((key) => !key.startsWith('x-'))) calls.push([method, url]);
      for (const method of item['x-additional-methods'] ?? []) calls.push([method, url]);
    }
    expect(calls.length).toBeGreaterThanOrEqual(GATEWAY_TABLE.length);
    for (const [method, url] of calls) {
      const response = await fetch(`${app.baseUrl}${url}`, {
        method: method.toUpperCase(),
        headers: { 'x-api-key': API_KEY, 'x-api-secret': API_SECRET },
      });
      const text = await response.text();
      // An unknown route answers 404 not_found (HEAD: without a body); a known one validates,
      // authenticates or answers (an unknown transaction is transaction_not_found, not a route 404).
      const routeMissing = response.status === 404 && (method === 'head' || /"errorCode":"not_found"/.test(text));
      expect([method, url, routeMissing]).toEqual([method, url, false]);
    }
  });

  it('documents SEARCH on /test-auth and the other methods of /deposit and /withdrawal', () => {
    expect(document.paths['/test-auth']['x-additional-methods']).toContain('SEARCH');
    expect(document.paths['/test-auth'].get.description).toContain('SEARCH');
    for (const path of ['/deposit', '/withdrawal']) {
      expect(document.paths[path]['x-additional-methods']).toEqual(expect.arrayContaining(['GET', 'PUT', 'SEARCH']));
    }
  });

  it('documents the GET infrastructure forms with query parameters', () => {
    for (const path of ['/deposits/deposit-request', '/withdraws/withdraw-request']) {
      const parameters = document.paths[path].get.parameters as Json[];
      expect(parameters.every((parameter) => parameter.in === 'query')).toBe(true);
      expect(parameters.map((parameter) => parameter.name)).toEqual(
        expect.arrayContaining(['ApiKey', 'OperationGuid', 'RequestId', 'SecurityKey', 'Amount']),
      );
    }
  });

  it('gives the H2H deposit request exactly the contract fields', () => {
    const body = document.paths['/deposit/bank'].post.requestBody;
    expect(body.required).toBe(true);
    const schema = resolve(body.content['application/json'].schema);
    expect(Object.keys(schema.properties).sort()).toEqual(
      // The contract's fields, plus our optional extensions (docs/integrators.md, "Optional fields
      // beyond the contract"): the customer's bank, the customer fields the callback's metadata carries,
      // and the fields risk blocklists compare (tckn, email, phone).
      [
        'amount',
        'apikey',
        'bank_code',
        'callback_url',
        'fullname',
        'hash',
        'transaction_id',
        'user_id',
        'username',
        'sender_name',
        'tckn',
        'email',
        'phone',
      ].sort(),
    );
    expect([...schema.required].sort()).toEqual(['amount', 'apikey', 'fullname', 'hash', 'transaction_id']);
    expect(resolve(schema.properties.amount).type).toEqual(['number', 'string']);
  });

  it('declares the security schemes: x-api-key, x-api-secret headers and HTTP Basic', () => {
    const schemes = document.components.securitySchemes;
    expect(schemes.ApiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(schemes.ApiSecretHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-secret' });
    expect(schemes.BasicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
  });

  it('documents form-shaped error bodies with their errorCodes and statuses', () => {
    const h2hErrors = document.paths['/deposit/bank'].post.responses;
    expect(resolve(h2hErrors['401'].content['application/json'].schema).required).toEqual(
      expect.arrayContaining(['status', 'code', 'message', 'errorCode']),
    );
    expect(Object.keys(h2hErrors['401'].content['application/json'].examples)).toEqual(
      expect.arrayContaining(['invalid_signature', 'invalid_credentials']),
    );
    expect(h2hErrors['409'].description).toContain('duplicate_transaction');
    const pascal = document.paths['/withdraws/withdraw-request'].post.responses['400'];
    expect(resolve(pascal.content['application/json'].schema).required).toEqual(
      expect.arrayContaining(['Success', 'Message', 'errorCode']),
    );
    expect(document['x-error-codes']).toMatchObject({ duplicate_transaction: 409, no_receiving_account: 503 });
  });

  it("carries H2H examples signed with the demo's keys, and the example is accepted by the gateway", async () => {
    const examples = Object.values(
      document.paths['/deposit/bank'].post.requestBody.content['application/json'].examples,
    ) as Json[];
    expect(examples.length).toBeGreaterThan(0);
    for (const { value } of examples) {
      expect(value.apikey).toBe(DEMO.h2h.apiKey);
      expect(value.hash).toBe(
        sha256(`${value.apikey}${value.transaction_id}${DEMO.h2h.apiSecret}${Math.round(value.amount)}`),
      );
    }
    // The example without callback_url (the provisioned infrastructure registers another URL).
    const minimal = examples.find(({ value }) => value.callback_url === undefined)!.value;
    const response = await postJson(`${app.baseUrl}/deposit/bank`, minimal);
    expect(response.status).toBe(201);
    const documented = resolve(
      document.paths['/deposit/bank'].post.responses['201'].content['application/json'].schema,
    );
    expect(Object.keys(response.body).sort()).toEqual(Object.keys(documented.properties).sort());
  });

  it("the Merchant and Infrastructure deposit examples are accepted as they are by the demo's providers", async () => {
    const merchant = document.paths['/deposit'].post.requestBody.content['application/json'].examples;
    const inHeaders = await postJson(`${app.baseUrl}/deposit`, merchant.headers.value, {
      'x-api-key': DEMO.merchant.apiKey,
      'x-api-secret': DEMO.merchant.apiSecret,
    });
    expect([inHeaders.status, inHeaders.body.success]).toEqual([200, true]);
    const infrastructure = Object.values(
      document.paths['/deposits/deposit-request'].post.requestBody.content['application/json'].examples,
    ) as Json[];
    expect(infrastructure.length).toBeGreaterThan(0);
    const created = await postJson(`${app.baseUrl}/deposits/deposit-request`, infrastructure[0]!.value);
    expect([created.status, created.body.success]).toEqual([200, true]);
  });

  it('describes what the live endpoints answer (keys of health, module health, banks, test-auth, status)', async () => {
    const successSchema = (path: string, method: string) => {
      const responses = document.paths[path][method].responses as Json;
      const status = Object.keys(responses).find((code) => code.startsWith('2'))!;
      return resolve(responses[status].content['application/json'].schema);
    };
    const expectDocumented = (body: Json, schema: Json) => {
      expect(Object.keys(body).filter((key) => !(key in schema.properties))).toEqual([]);
      expect((schema.required as string[]).filter((key) => !(key in body))).toEqual([]);
    };
    const headers = { 'x-api-key': API_KEY, 'x-api-secret': API_SECRET };
    const getJson = async (path: string) => (await (await get(path)).json()) as Json;
    expectDocumented(await getJson('/'), successSchema('/', 'get'));
    expectDocumented(await getJson('/eqopay/health'), successSchema('/eqopay/health', 'get'));
    const banks = await getJson('/banks');
    expectDocumented(banks, successSchema('/banks', 'get'));
    expect(banks.data.length).toBeGreaterThan(0);
    expectDocumented(banks.data[0], document.components.schemas.BankItem);
    const testAuth = await postJson(`${app.baseUrl}/test-auth`, {}, headers);
    expect(testAuth.status).toBe(200);
    expectDocumented(testAuth.body, successSchema('/test-auth', 'post'));
    const id = `DOCS-${Date.now()}`;
    const created = await postJson(`${app.baseUrl}/deposit/bank`, {
      apikey: API_KEY,
      transaction_id: id,
      amount: '99.90',
      fullname: 'Zeynep Kaya',
      hash: sha256(`${API_KEY}${id}${API_SECRET}100`),
    });
    expect(created.status).toBe(201);
    const status = await postJson(`${app.baseUrl}/status/${id}`, {}, headers);
    expect(status.status).toBe(201);
    expectDocumented(status.body, successSchema('/status/{identifier}', 'post'));
    const refused = await postJson(`${app.baseUrl}/status/${id}`, {}, { ...headers, 'x-api-secret': 'wrong' });
    expect(refused.status).toBe(401);
    expectDocumented(
      refused.body,
      resolve(document.paths['/status/{identifier}'].post.responses['401'].content['application/json'].schema),
    );
  });

  it.each(['', '/api'])('GET %s/docs is an HTML page whose every asset is served from here', async (prefix) => {
    const response = await get(`${prefix}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    const links = [...html.matchAll(/\s(?:src|href|data-spec-url)="([^"]+)"/g)].map((match) => match[1]!);
    const assets = links.filter((link) => link.startsWith(`${prefix}/docs/assets/`));
    expect(assets.length).toBeGreaterThanOrEqual(4);
    // Nothing from another origin: every reference is a path on this server.
    expect(links.every((link) => link.startsWith('/'))).toBe(true);
    expect(links).toContain(`${prefix}/openapi.json`);
    for (const link of links) {
      const asset = await get(link);
      expect([link, asset.status]).toEqual([link, 200]);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    expect(assets.some((link) => link.endsWith('/swagger-ui-bundle.js'))).toBe(true);
  });

  it('renders in a real browser, loading nothing from another origin and breaking no CSP rule', async () => {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      const foreign: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
      page.on('request', (request) => {
        if (!request.url().startsWith(app.baseUrl)) foreign.push(request.url());
      });
      await page.goto(`${app.baseUrl}/api/docs`);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      // 20 gateway operations (GET+POST forms, seven /test-auth methods), 3 incoming webhook routes, 2
      // sandbox actions and 4 callback webhooks.
      expect(await page.locator('.opblock').count()).toBe(29);
      await page.locator('.opblock-summary-path[data-path="/deposit/bank"]').first().click();
      await page.getByText('Deposit created: the receiving account.').waitFor();
      expect(problems).toEqual([]);
      expect(foreign).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('serves only the allow-listed asset files', async () => {
    for (const path of [
      '/docs/assets/index.html',
      '/docs/assets/package.json',
      '/docs/assets/..%2Fpackage.json',
      '/docs/assets/..%2F..%2F..%2Fpackage.json',
      '/docs/assets/%2e%2e%2fswagger-ui.css',
      '/docs/assets/__proto__',
      '/docs/assets/constructor',
      '/docs/../package.json',
    ]) {
      const response = await get(path);
      expect([path, response.status]).toEqual([path, 404]);
    }
    const css = await get('/docs/assets/swagger-ui.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(css.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
