import { startTestApp, type TestApp } from '../support/test-app.js';
import { KEYS, conformanceBootstrap, infraFields } from '../gateway/conformance-fixture.js';

/**
 * The payment page names the merchant and links back to the merchant's site when the deposit gave a
 * return URL (`returnUrl` on the Merchant API, `ReturnUrl` on the Infrastructure API), accepted only on
 * an origin registered for the integration (its callback URLs' origins); anything else is a clear 400
 * in the form's error shape and nothing is written.
 */
describe('payment page: merchant name and return URL (PGlite)', () => {
  let app: TestApp;
  let n = 0;
  // conformanceBootstrap registers http://127.0.0.1:9999/<slug>/deposit and …/withdrawal.
  const registered = 'http://127.0.0.1:9999';

  beforeAll(async () => {
    app = await startTestApp('pglite');
    await app.provision(conformanceBootstrap());
  });
  afterAll(async () => {
    await app?.stop();
  });

  const merchantHeaders = {
    'content-type': 'application/json',
    'x-api-key': KEYS.merchant.apiKey,
    'x-api-secret': KEYS.merchant.apiSecret,
  };

  async function merchantDeposit(extra: Record<string, unknown>) {
    const transactionId = `RET-${++n}-${Date.now()}`;
    const response = await fetch(`${app.baseUrl}/deposit`, {
      method: 'POST',
      headers: merchantHeaders,
      body: JSON.stringify({ transactionId, amount: 100, username: 'ali', ...extra }),
    });
    return { transactionId, status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  async function page(paymentUrl: string): Promise<string> {
    const response = await fetch(paymentUrl.replace(/^https?:\/\/[^/]+/, app.baseUrl));
    expect(response.status).toBe(200);
    return response.text();
  }

  const transactions = async (externalId: string) => {
    await app.settle();
    const { rows } = await app.db.query('select 1 from rm_transactions where external_id = $1', [externalId]);
    return rows.length;
  };

  it('Merchant API: the page names the merchant and links back to the return URL', async () => {
    const returnUrl = `${registered}/shop/orders/42?paid=1&lang=tr`;
    const created = await merchantDeposit({ returnUrl });
    expect(created.status).toBe(200);
    const html = await page(created.body.data.paymentUrl);
    expect(html).toContain('Ödeme alıcısı: Conformance');
    expect(html).toContain(`href="${returnUrl.replace('&', '&amp;')}"`);
    expect(html).toContain('Conformance sitesine dön');
    // English too.
    const en = await page(`${created.body.data.paymentUrl}?lang=en`);
    expect(en).toContain('Paying Conformance');
    expect(en).toContain('← Back to Conformance');
  });

  it('without a return URL: the merchant is named, no link', async () => {
    const created = await merchantDeposit({});
    expect(created.status).toBe(200);
    const html = await page(created.body.data.paymentUrl);
    expect(html).toContain('Ödeme alıcısı: Conformance');
    expect(html).not.toContain('id="back-to-merchant"');
  });

  it('a return URL off the registered origins is refused 400 return_url_refused, naming them, and nothing is written', async () => {
    for (const returnUrl of [
      'https://evil.example/phish',
      'http://127.0.0.1:9998/other-port',
      'javascript:alert(1)',
      'http://user:pw@127.0.0.1:9999/x',
      '/relative/path',
    ]) {
      const refused = await merchantDeposit({ returnUrl });
      expect({ returnUrl, status: refused.status, errorCode: refused.body.errorCode }).toEqual({
        returnUrl,
        status: 400,
        errorCode: 'return_url_refused',
      });
      expect(refused.body.success).toBe(false);
      expect(refused.body.message).toMatch(
        /^returnUrl .*registered for this integration \(http:\/\/127\.0\.0\.1:9999\)/,
      );
      expect(await transactions(refused.transactionId)).toBe(0);
    }
  });

  it('Infrastructure API: ReturnUrl on the GET and POST forms; refused in the PascalCase-free deposit shape', async () => {
    const returnUrl = `${registered}/casino/cashier`;
    const post = await fetch(`${app.baseUrl}/deposits/deposit-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(infraFields(`RET-I-${++n}`, 100, { CustomerFullName: 'A B', ReturnUrl: returnUrl })),
    });
    expect(post.status).toBe(200);
    const posted = (await post.json()) as { data: { paymentLink: string } };
    expect(await page(posted.data.paymentLink)).toContain(`href="${returnUrl}"`);

    const query = new URLSearchParams(
      Object.entries(infraFields(`RET-I-${++n}`, 100, { CustomerFullName: 'A B', ReturnUrl: returnUrl })).map(
        ([k, v]) => [k, String(v)] as [string, string],
      ),
    );
    const get = await fetch(`${app.baseUrl}/deposits/deposit-request?${query}`);
    expect(get.status).toBe(200);

    const refused = await fetch(`${app.baseUrl}/deposits/deposit-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        infraFields(`RET-I-${++n}`, 100, { CustomerFullName: 'A B', ReturnUrl: 'https://evil.example/' }),
      ),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ success: false, errorCode: 'return_url_refused' });
  });
});
