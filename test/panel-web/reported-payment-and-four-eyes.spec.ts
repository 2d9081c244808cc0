import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { h2hBody } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { issueBootstrap, postJson, type TestApp } from '../support/test-app.js';
import { launchBrowser, loginInBrowser, newPanelContext, screenshot, startPanelWebApp } from './browser.js';

/**
 * In headless Chromium against a real app on PostgreSQL: the customer names the bank and the time on
 * the payment page, and the approve dialog in the Turkish panel shows them; an amount change beyond
 * the four-eyes limits waits on the "Tutar onayları" screen, where the admin who asked sees it
 * without buttons and a second admin approves it, at 1440 and 390 px.
 */
const ADMIN = { username: 'admin', password: 'S3cure-pass!' };
const SECOND = { username: 'admin2', password: 'Initial-pass-1' };
const KEY = { apiKey: 'ak_test_1', apiSecret: 'sk_test_1' };
const UI_TIMEOUT_MS = 30_000;
const PHONE = { width: 390, height: 844 };

describe('the reported bank and time, and four eyes, in the panel (PostgreSQL, Chromium)', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  const pageErrors: string[] = [];
  const run = Date.now();
  let n = 0;

  async function deposit(amount: number, fullname: string) {
    const externalId = `rep-${++n}-${run}`;
    const created = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEY, externalId, amount, { fullname }));
    expect(created.status).toBe(201);
    await app.settle();
    const { rows } = await app.db.query<{ token: string; id: string; number: string }>(
      'select payment_token as token, transaction_id::text as id, number::text from rm_transactions where external_id = $1',
      [externalId],
    );
    const row = rows[0]!;
    return { externalId, token: row.token, uuid: row.id, number: Number(row.number) };
  }

  beforeAll(async () => {
    // 100.00 TRY or 50 % of the requested amount: larger changes wait for a second admin.
    app = await startPanelWebApp('postgres', { fourEyes: { aboveKurus: 10_000n, abovePercent: 50 } });
    await app.provision(issueBootstrap());
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: SECOND.username, password: SECOND.password, role: 'admin', active: true },
        { source: 'test' },
      ),
    );
    await app.settle();
    client = panelClient(app);
    admin = (await client.login(ADMIN.username, ADMIN.password)).accessToken;
    browser = await launchBrowser();
    context = await newPanelContext(browser, 'tr');
    page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await loginInBrowser(page, app, ADMIN);
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  it('the customer picks the bank and types the time; the approve dialog shows both, at 1440 and 390 px', async () => {
    const target = await deposit(275, 'Bildiren Müşteri');
    const customer = await browser.newContext({
      locale: 'tr-TR',
      timezoneId: 'Europe/Istanbul',
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    try {
      const payment = await customer.newPage();
      payment.setDefaultTimeout(UI_TIMEOUT_MS);
      await payment.goto(`${app.baseUrl}/payment/${target.token}?lang=tr`);
      // The first bank of the list (its "anında" badge is not part of its name).
      const bank = payment.locator('label.bank').first();
      const bankName = (await bank.innerText()).replace('anında', '').trim();
      expect(bankName).not.toBe('Diğer banka');
      await bank.click();
      await payment.getByLabel('Gönderim saati (isteğe bağlı)').fill('09:41');
      await screenshot(payment, 'payment-report-bank-and-time');
      await Promise.all([
        payment.waitForURL(`**/payment/${target.token}?lang=tr`),
        payment.getByRole('button', { name: 'Havaleyi gönderdim' }).click(),
      ]);
      await payment.getByText('Havaleniz kontrol ediliyor').waitFor();

      const detail = (await client.get(`/panel/transactions/${target.uuid}`, admin)).body;
      expect(detail.state).toBe('payment_reported');
      expect(detail.paymentReport).toEqual({
        senderBank: bankName,
        transferredAt: expect.stringMatching(/T09:41:00\+03:00$/),
      });
      const day = detail.paymentReport.transferredAt.slice(0, 10).split('-').reverse().join('.');

      for (const width of ['desktop', 'phone'] as const) {
        let view = page;
        let phone: BrowserContext | undefined;
        if (width === 'phone') {
          phone = await browser.newContext({
            locale: 'tr-TR',
            timezoneId: 'Europe/Istanbul',
            viewport: PHONE,
            isMobile: true,
            hasTouch: true,
          });
          view = await phone.newPage();
          view.setDefaultTimeout(UI_TIMEOUT_MS);
          view.on('pageerror', (error) => pageErrors.push(error.message));
          await loginInBrowser(view, app, ADMIN);
        }
        try {
          await view.goto(`${app.baseUrl}/admin/#/deposits`);
          const holder =
            width === 'desktop'
              ? view.locator('tr', { hasText: target.externalId })
              : view.locator(`[data-testid=queue-card][data-number="${target.number}"]`);
          await holder.waitFor();
          await holder.getByRole('button', { name: 'Onayla' }).click();
          const checks = view.getByRole('dialog').getByTestId('approve-checks');
          await checks.getByText('Müşterinin bildirdiği gönderen banka').waitFor();
          const text = (await checks.innerText()).replace(/\s+/g, ' ');
          expect(text).toContain(`Müşterinin bildirdiği gönderen banka ${bankName}`);
          expect(text).toContain(`Müşterinin bildirdiği gönderim zamanı ${day} 09:41:00`);
          await screenshot(view, `approve-reported-bank-${width}`);
          await view.getByRole('dialog').getByRole('button', { name: 'Vazgeç' }).click();
        } finally {
          await phone?.close();
        }
      }
    } finally {
      await customer.close();
    }
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('a deposit reported without a bank or time says so in the approve dialog', async () => {
    const target = await deposit(180, 'Sessiz Müşteri');
    // The old form's post: an empty body, as every report before these fields was.
    const reported = await fetch(`${app.baseUrl}/payment/${target.token}/reported?lang=tr`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '',
      redirect: 'manual',
    });
    expect(reported.status).toBe(303);
    await page.goto(`${app.baseUrl}/admin/#/deposits`);
    const row = page.locator('tr', { hasText: target.externalId });
    await row.waitFor();
    await row.getByRole('button', { name: 'Onayla' }).click();
    await page.getByRole('dialog').getByTestId('reported-nothing').waitFor();
    expect(await page.getByRole('dialog').getByTestId('approve-checks').innerText()).not.toContain(
      'bildirdiği gönderen',
    );
    await page.getByRole('dialog').getByRole('button', { name: 'Vazgeç' }).click();
  }, 60_000);

  it('an amount change beyond the limits waits on "Tutar onayları"; the asker has no buttons, a second admin approves', async () => {
    const target = await deposit(300, 'Dört Göz Müşterisi');
    const asked = await client.post('/panel/deposit/update-amount', { id: target.uuid, amount: 450 }, admin);
    expect(asked.status).toBe(202);

    await page.goto(`${app.baseUrl}/admin/#/amount-changes`);
    await page
      .getByRole('heading', { level: 2, name: 'İkinci yönetici onayı bekleyen tutar değişiklikleri' })
      .waitFor();
    const mine = page.getByTestId('amount-change').filter({ hasText: `#${target.number}` });
    await mine.getByText('Bunu siz istediniz: başka bir yönetici karar verir.').waitFor();
    expect(await mine.getByRole('button').count()).toBe(0);
    expect((await mine.getByTestId('amount-change-summary').innerText()).replace(/\s+/g, ' ')).toBe(
      '₺300,00 → ₺450,00',
    );
    await screenshot(page, 'four-eyes-asker-1440');

    const phone = await browser.newContext({
      locale: 'tr-TR',
      timezoneId: 'Europe/Istanbul',
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    try {
      const second = await phone.newPage();
      second.setDefaultTimeout(UI_TIMEOUT_MS);
      second.on('pageerror', (error) => pageErrors.push(error.message));
      await loginInBrowser(second, app, SECOND);
      await second.goto(`${app.baseUrl}/admin/#/amount-changes`);
      const card = second.getByTestId('amount-change').filter({ hasText: `#${target.number}` });
      await card.getByText('İsteyen: admin', { exact: false }).waitFor();
      await card.getByRole('button', { name: 'Değişikliği onayla' }).click();
      const dialog = second.getByRole('dialog');
      await dialog.getByText('#' + target.number + ' tutar değişikliği onaylansın mı?').waitFor();
      await screenshot(second, 'four-eyes-approve-390');
      await dialog.getByRole('button', { name: 'Değişikliği onayla' }).click();
      await second.getByText(`#${target.number} tutarı artık ₺450,00`).waitFor();
      await card.waitFor({ state: 'detached' });
    } finally {
      await phone.close();
    }
    expect((await client.get(`/panel/transactions/${target.uuid}`, admin)).body).toMatchObject({ amount: 450 });
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
