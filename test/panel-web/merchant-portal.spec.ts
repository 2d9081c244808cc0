import { h2hHash, kurusFrom } from '@transfergate/contracts';
import { parseBootstrap } from '@transfergate/all-in-one';
import type { Browser } from 'playwright-core';
import { CallbackReceiver } from '../callbacks/callback-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { postJson, type TestApp } from '../support/test-app.js';
import { Authenticator, launchBrowser, newPanelContext, screenshot, startPanelWebApp } from './browser.js';

const KEY = { apiKey: 'ak_portal_acme', apiSecret: 'sk_portal_acme_secret' };

// DOM globals inside the page (the test's own tsconfig has no DOM lib).
type Dom = {
  document: { documentElement: { scrollWidth: number } };
  innerWidth: number;
  localStorage: { setItem(key: string, value: string): void };
};

/**
 * A merchant admin's first day in the portal, in a real browser (Debian's chromium), in Turkish, at
 * 1440 and at 390 px, against a real app on PostgreSQL: the operator invites the admin over the API;
 * in the browser the admin signs in with the first password, sets up 2FA (required for merchant
 * admins) and signs in with a code, finds a transaction, sees its failed callback, recovers the
 * failed callbacks once the receiver answers again, and rotates the API secret with the default
 * overlap window (both secrets then pass at the gateway). Screenshots: merchant-portal-*.png.
 */
describe('merchant portal: a merchant admin first day in chromium (PostgreSQL, Turkish)', () => {
  let app: TestApp;
  let receiver: CallbackReceiver;
  let browser: Browser;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let merchantId = '';
  let secret = KEY.apiSecret;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    app = await startPanelWebApp('postgres', {
      callbacks: { retryScheduleMs: [0], requestTimeoutMs: 2_000, leaseMs: 5_000, pollIntervalMs: 100 },
    });
    await app.provision(
      parseBootstrap(
        {
          operators: [{ username: 'admin', password: 'S3cure-pass!', role: 'admin' }],
          infrastructures: [
            {
              name: 'Portal H2H',
              slug: 'portal',
              apiForm: 'h2h',
              callbackFormat: 'h2h',
              callback_deposit: `${receiver.base}/portal/deposit`,
              callback_withdrawal: `${receiver.base}/portal/withdrawal`,
            },
          ],
          merchants: [
            {
              name: 'Acme Ödeme',
              minAmount: 1,
              maxAmount: 100000,
              overdraftLimit: 0,
              providers: [{ name: 'acme-h2h', infrastructure: 'portal', ...KEY }],
            },
          ],
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
        'portal',
      ),
    );
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    merchantId = (await client.get('/panel/merchants', admin)).body.items[0].id;
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await receiver?.close();
  });

  /** An approved deposit whose callback the receiver refuses once: a failed callback. */
  async function failedCallback(externalId: string) {
    receiver.script('/portal/deposit', (_request, response) => {
      response.writeHead(503);
      response.end('maintenance');
    });
    const created = await postJson(`${app.baseUrl}/deposit/bank`, {
      apikey: KEY.apiKey,
      transaction_id: externalId,
      amount: 250,
      fullname: 'Ayşe Yılmaz',
      hash: h2hHash(KEY.apiKey, externalId, secret, kurusFrom(250)),
    });
    expect(created.status).toBe(201);
    const id = (await client.get(`/panel/transactions?q=${externalId}`, admin)).body.items[0].id;
    expect((await client.post('/panel/deposit/approve', { id }, admin)).status).toBe(201);
    for (let waitedMs = 0; waitedMs < 15_000; waitedMs += 100) {
      const item = (await client.get(`/panel/callbacks?transactionId=${externalId}`, admin)).body.items[0];
      if (item?.state === 'failed') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the callback did not fail');
  }

  for (const width of [1440, 390]) {
    it(`at ${width} px: accepts the invitation, sets up 2FA, finds the failed callback, recovers it, rotates the secret`, async () => {
      const username = `ayse-${width}`;
      const invited = await client.post(
        '/panel/merchant-users/invite',
        { merchantId, username, role: 'merchant_admin' },
        admin,
      );
      expect(invited.status).toBe(201);
      const externalId = `PORTAL-${width}-${Date.now()}`;
      await failedCallback(externalId);

      const context = await newPanelContext(browser, 'tr');
      await context.addInitScript(() => (globalThis as unknown as Dom).localStorage.setItem('tg.locale', 'tr'));
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const shot = (name: string) => screenshot(page, `merchant-portal-${width}-${name}`);

      // Accept the invitation: the first password, then the 2FA enrolment merchant admins need.
      await page.goto(`${app.baseUrl}/admin/#/login`);
      await page.locator('#username').fill(username);
      await page.locator('#password').fill(String(invited.body.password));
      await page.locator('button[type=submit]').click();
      const key = await page.locator('[data-testid=totp-secret]').textContent();
      await page.getByText('iki adımlı doğrulama gerektiriyor', { exact: false }).first().waitFor();
      await shot('2fa-setup');
      const authenticator = new Authenticator(String(key).trim());
      await page.locator('#totp-code').fill(await authenticator.next());
      await page.locator('button[type=submit]').click();
      await page.getByText('İki adımlı doğrulama açıldı', { exact: false }).waitFor();
      await page.locator('#totp-code').fill(await authenticator.next());
      await page.locator('button[type=submit]').click();
      await page.locator('[data-testid=merchant-home]').waitFor({ timeout: 15_000 });
      await page.getByRole('heading', { name: 'Acme Ödeme' }).waitFor();
      await page.locator('[data-testid=merchant-balance]').getByText('₺', { exact: false }).waitFor();
      await shot('home');

      // Find the transaction and its failed callback.
      await page.getByRole('link', { name: 'İşlemler' }).click();
      await page.getByLabel('İşlem kimliği, numarası ya da müşteri').fill(externalId);
      await page.getByRole('button', { name: 'Ara' }).click();
      await page.getByRole('link', { name: new RegExp(externalId) }).click();
      const callback = page.locator('[data-testid=portal-callback]');
      await callback.getByText('başarısız').waitFor();
      await callback.getByText('503', { exact: false }).first().waitFor();
      await shot('failed-callback');

      // The receiver answers again: recover every failed callback of the last day.
      await page.getByRole('link', { name: 'Genel bakış' }).click();
      await page.getByRole('button', { name: 'Başarısız geri bildirimleri yeniden gönder' }).click();
      await page.getByText('1 başarısız geri bildirim yeniden gönderildi').waitFor();
      await receiver.waitFor(() => receiver.received.filter((r) => r.body.transactionId === externalId).length === 2);
      await shot('recovered');

      // Rotate the secret with the default window: the new one is shown once; both pass meanwhile.
      const old = secret;
      await page.getByRole('button', { name: 'Gizli anahtarı yenile' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Varsayılan süre (24 saat)').waitFor();
      await shot('rotate');
      await dialog.getByRole('button', { name: 'Gizli anahtarı yenile' }).click();
      const shown = page.getByLabel('API gizli anahtarı', { exact: true });
      await shown.waitFor();
      secret = await shown.inputValue();
      expect(secret).toMatch(/^sk_/);
      await page.getByRole('button', { name: 'Kaydettim' }).click();
      await page.locator('[data-testid=overlap-until]').waitFor();
      await shot('rotated');
      for (const apiSecret of [old, secret]) {
        const status = await postJson(
          `${app.baseUrl}/status/${externalId}`,
          {},
          { 'x-api-key': KEY.apiKey, 'x-api-secret': apiSecret },
        );
        expect(status.status).toBe(201);
      }
      // Nothing runs off the screen on a phone.
      const overflow = await page.evaluate(() => {
        const dom = globalThis as unknown as Dom;
        return dom.document.documentElement.scrollWidth - dom.innerWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      await context.close();
    }, 120_000);
  }

  it('raised no uncaught error in the page along the way', () => {
    expect(pageErrors).toEqual([]);
  });
});
