import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ApproveTransactionCommand, ExpireTransactionCommand, RejectTransactionCommand } from '@transfergate/contracts';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The customer payment page over real HTTP and in a real Chromium at phone size: what the customer
 * reads, copies and presses, the live status switch, both languages, and the pages for unknown,
 * expired and rejected deposits. Screenshots land in test-artifacts/ (git-ignored) for a human look.
 */
const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const IBAN = 'TR330006100519786457841326';
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Deposit {
  externalId: string;
  token: string;
  transactionId: string;
  number: number;
}

describe('customer payment page (postgres, Chromium)', () => {
  let app: TestApp;
  let browser: Browser;
  let n = 0;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap());
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** An H2H deposit over HTTP; its token comes from the read model (the H2H answer has no link). */
  async function createDeposit(amount = '1250.50', fullname = 'Ayşe Yılmaz'): Promise<Deposit> {
    const externalId = `PP-${++n}-${Date.now()}`;
    const res = await postJson(`${app.baseUrl}/deposit/bank`, {
      apikey: 'ak_test_1',
      transaction_id: externalId,
      amount,
      fullname,
      hash: sha256(`ak_test_1${externalId}sk_test_1${Math.round(Number(amount))}`),
    });
    expect(res.status).toBe(201);
    await app.settle();
    const { rows } = await app.db.query<{ payment_token: string; transaction_id: string; number: string }>(
      'select payment_token, transaction_id::text, number::text from rm_transactions where external_id = $1',
      [externalId],
    );
    const row = rows[0]!;
    return { externalId, token: row.payment_token, transactionId: row.transaction_id, number: Number(row.number) };
  }

  const pageUrl = (token: string, query = '') => `${app.baseUrl}/payment/${token}${query}`;

  async function statusOf(token: string) {
    const res = await fetch(`${pageUrl(token)}/status`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** A phone-sized page that records console errors (CSP violations are reported there). */
  async function phonePage(
    options: { locale?: string; clipboard?: boolean } = {},
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({
      ...PHONE,
      locale: options.locale ?? 'tr-TR',
      ...(options.clipboard ? { permissions: ['clipboard-read', 'clipboard-write'] } : {}),
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return { context, page, errors };
  }

  it('shows the account, amount, reference and countdown; copies; reports; switches to approved by itself', async () => {
    const deposit = await createDeposit('1250.50');
    const { context, page, errors } = await phonePage({ clipboard: true });
    try {
      const response = await page.goto(pageUrl(deposit.token));
      expect(response!.status()).toBe(200);
      const headers = response!.headers();
      expect(headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['x-content-type-options']).toBe('nosniff');
      const csp = headers['content-security-policy']!;
      expect(csp).toMatch(/default-src 'none'/);
      expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]{16,}'/);
      expect(csp).toMatch(/style-src 'nonce-[A-Za-z0-9+/=]{16,}'/);
      expect(csp).not.toContain('unsafe-inline');

      expect(await page.getAttribute('html', 'lang')).toBe('tr');
      // The inline script ran under the CSP (it removes the no-JS marker that hides copy buttons).
      expect(await page.getAttribute('html', 'class')).toBe('');
      const text = await page.locator('body').innerText();
      expect(text).toContain('Transfer Ltd');
      expect(text).toContain('TR33 0006 1005 1978 6457 8413 26');
      expect(text).toContain('₺1.250,50');
      expect(text).toContain(`TG-${deposit.number}`);
      expect(text).toContain('Ziraat Bankası');
      expect(text).toContain('Kalan süre');
      expect(text).toContain('Ayşe Yılmaz');
      await expect(page.locator('#countdown').innerText()).resolves.toMatch(/^(29:[0-5]\d|30:00)$/);
      // It is live: the next second shows a different value.
      const first = await page.locator('#countdown').innerText();
      await page.locator('#countdown').filter({ hasNotText: first }).waitFor({ timeout: 3_000 });

      // Bank picker: the receiving account's bank is instant, another bank goes by FAST.
      await page.getByLabel('Ziraat Bankası').check();
      await expect(page.getByText('Aynı banka: havaleniz anında hesaba geçer.').isVisible()).resolves.toBe(true);
      await page.getByLabel('Diğer banka').check();
      await expect(page.getByText('Aynı banka').isVisible()).resolves.toBe(false);
      await expect(page.getByText(/FAST ile 7\/24/).isVisible()).resolves.toBe(true);
      await page.getByLabel('Ziraat Bankası').check();

      // Copy buttons put the plain values on the clipboard and say so (the write is async: wait for the feedback).
      const copy = async (target: string) => {
        await page.locator(`button[aria-controls="${target}"]`).click();
        await page.locator(`button[aria-controls="${target}"].done`).waitFor({ timeout: 3_000 });
        return page.evaluate('navigator.clipboard.readText()');
      };
      await expect(copy('v-iban')).resolves.toBe(IBAN);
      await expect(page.locator('button[aria-controls="v-iban"]').innerText()).resolves.toBe('Kopyalandı ✓');
      await expect(copy('v-amount')).resolves.toBe('1250,50');
      await expect(copy('v-ref')).resolves.toBe(`TG-${deposit.number}`);

      await page.screenshot({ path: join(ARTIFACTS, 'payment-page-1-pay.png'), fullPage: true });

      // "I have sent the transfer": a form post, 303 back to the page, now waiting.
      await Promise.all([
        page.waitForURL(`**/payment/${deposit.token}?lang=tr`),
        page.getByRole('button', { name: 'Havaleyi gönderdim' }).click(),
      ]);
      await expect(page.getByText('Havaleniz kontrol ediliyor').isVisible()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'Havaleyi gönderdim' }).count()).resolves.toBe(0);
      expect((await statusOf(deposit.token)).body.state).toBe('payment_reported');
      await page.screenshot({ path: join(ARTIFACTS, 'payment-page-2-waiting.png'), fullPage: true });

      // An operator approves; the page polls and switches without a reload.
      await page.evaluate('window.__sameDocument = true');
      await app.commands.execute(
        new ApproveTransactionCommand({ transactionId: deposit.transactionId, actor: { source: 'test' } }),
      );
      await page.getByText('Ödemeniz onaylandı').waitFor({ state: 'visible', timeout: 10_000 });
      await expect(page.getByText('Havaleniz kontrol ediliyor').isVisible()).resolves.toBe(false);
      await expect(page.evaluate('window.__sameDocument')).resolves.toBe(true);
      await expect(page.locator('body').innerText()).resolves.toContain(`TG-${deposit.number}`);
      // A receipt now: no "amount to send", nothing left to copy.
      await expect(page.getByText('Gönderilecek tutar').isVisible()).resolves.toBe(false);
      await expect(page.locator('button[aria-controls="v-amount"]').isVisible()).resolves.toBe(false);
      await page.screenshot({ path: join(ARTIFACTS, 'payment-page-3-approved.png'), fullPage: true });

      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('speaks English with ?lang=en, by Accept-Language, and through the switch link', async () => {
    const deposit = await createDeposit('250');
    const { context, page, errors } = await phonePage({ locale: 'tr-TR' });
    try {
      await page.goto(pageUrl(deposit.token, '?lang=en'));
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      const text = await page.locator('body').innerText();
      for (const phrase of [
        'Pay by bank transfer',
        'Amount to send',
        'Time left',
        'Which bank will you pay from?',
        'Account holder',
        'I have sent the transfer',
        '₺250,00',
      ]) {
        expect(text).toContain(phrase);
      }
      expect(text).not.toContain('Havaleyi gönderdim');
      await page.screenshot({ path: join(ARTIFACTS, 'payment-page-4-english.png'), fullPage: true });

      await Promise.all([page.waitForURL(/lang=tr$/), page.getByRole('link', { name: 'Türkçe' }).click()]);
      await expect(page.locator('body').innerText()).resolves.toContain('Havaleyi gönderdim');
      await Promise.all([page.waitForURL(/lang=en$/), page.getByRole('link', { name: 'English' }).click()]);
      await expect(page.locator('body').innerText()).resolves.toContain('I have sent the transfer');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    const byHeader = await fetch(pageUrl(deposit.token), { headers: { 'accept-language': 'de-DE,en;q=0.8,tr;q=0.5' } });
    expect(await byHeader.text()).toContain('I have sent the transfer');
    expect(byHeader.headers.get('vary')).toMatch(/accept-language/i);
    const byDefault = await fetch(pageUrl(deposit.token), { headers: { 'accept-language': 'de-DE' } });
    expect(await byDefault.text()).toContain('Havaleyi gönderdim');
    const explicitWins = await fetch(pageUrl(deposit.token, '?lang=tr'), { headers: { 'accept-language': 'en' } });
    expect(await explicitWins.text()).toContain('Havaleyi gönderdim');
  });

  it('an unknown token is a friendly 404 page, in the chosen language', async () => {
    for (const [query, phrase] of [
      ['', 'Ödeme sayfası bulunamadı'],
      ['?lang=en', 'Payment page not found'],
    ] as const) {
      const res = await fetch(pageUrl('Zm9vYmFyYmF6cXV4cXV1eHh4eHh4eA', query));
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = await res.text();
      expect(body).toMatch(/^<!doctype html>/);
      expect(body).toContain(phrase);
      expect(body).not.toContain('errorCode');
    }
    // Whatever is in the path is not reflected into the page.
    const weird = await fetch(pageUrl('%3Cscript%3Ealert(1)%3C%2Fscript%3E'));
    expect(weird.status).toBe(404);
    expect(await weird.text()).not.toContain('<script>alert');
    const reported = await fetch(`${pageUrl('nope-nope-nope-nope-nope-nope')}/reported`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(reported.status).toBe(404);
    expect(reported.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await statusOf('nope-nope-nope-nope-nope-nope')).toMatchObject({ status: 404 });

    const { context, page } = await phonePage();
    try {
      const response = await page.goto(pageUrl('Zm9vYmFyYmF6cXV4cXV1eHh4eHh4eA'));
      expect(response!.status()).toBe(404);
      await page.screenshot({ path: join(ARTIFACTS, 'payment-page-5-not-found.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('an expired deposit shows the expired page and cannot be reported', async () => {
    const deposit = await createDeposit('100');
    await app.commands.execute(
      new ExpireTransactionCommand({ transactionId: deposit.transactionId, now: new Date(Date.now() + 31 * 60_000) }),
    );
    const res = await fetch(pageUrl(deposit.token));
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('Ödeme süresi doldu');
    expect(body).not.toContain('Havaleyi gönderdim');
    expect(body).not.toContain(IBAN);
    expect(await statusOf(deposit.token)).toMatchObject({ status: 200, body: { state: 'expired' } });

    const reported = await fetch(`${pageUrl(deposit.token)}/reported`, { method: 'POST', redirect: 'manual' });
    expect(reported.status).toBe(303);
    expect((await statusOf(deposit.token)).body.state).toBe('expired');

    const { context, page } = await phonePage({ locale: 'en-US' });
    try {
      await page.goto(pageUrl(deposit.token, '?lang=en'));
      await expect(page.getByText('This payment has expired').isVisible()).resolves.toBe(true);
      await page.screenshot({ path: join(ARTIFACTS, 'payment-page-6-expired.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('a rejected deposit says so, without the operator reason', async () => {
    const deposit = await createDeposit('75.25');
    await app.commands.execute(
      new RejectTransactionCommand({
        transactionId: deposit.transactionId,
        reason: 'internal note: no money arrived',
        actor: { source: 'test' },
      }),
    );
    const tr = await (await fetch(pageUrl(deposit.token))).text();
    expect(tr).toContain('Ödemeniz onaylanmadı');
    expect(tr).toContain(`TG-${deposit.number}`);
    expect(tr).not.toContain('internal note');
    expect(tr).not.toContain('<script nonce'); // final: nothing left to poll
    const en = await (await fetch(pageUrl(deposit.token, '?lang=en'))).text();
    expect(en).toContain('Your payment was not approved');
    expect(await statusOf(deposit.token)).toMatchObject({ body: { state: 'rejected' } });
  });

  it('renders a script in the customer name as text', async () => {
    const deposit = await createDeposit('50', '<script>window.__x=1</script>');
    const raw = await (await fetch(pageUrl(deposit.token))).text();
    expect(raw).toContain('&lt;script&gt;window.__x=1&lt;/script&gt;');
    expect(raw).not.toContain('<script>window.__x');
    const { context, page, errors } = await phonePage();
    try {
      await page.goto(pageUrl(deposit.token));
      await expect(page.evaluate('typeof window.__x')).resolves.toBe('undefined');
      await expect(page.locator('body').innerText()).resolves.toContain('<script>window.__x=1</script>');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('POST /payment/:token/reported twice answers 303 both times and leaves payment_reported', async () => {
    const deposit = await createDeposit('300');
    const post = () => fetch(`${pageUrl(deposit.token)}/reported?lang=en`, { method: 'POST', redirect: 'manual' });
    for (let i = 0; i < 2; i++) {
      const res = await post();
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`../${deposit.token}?lang=en`);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(new URL(res.headers.get('location')!, res.url).pathname).toBe(`/payment/${deposit.token}`);
    }
    const status = await statusOf(deposit.token);
    expect(status.body).toMatchObject({ state: 'payment_reported' });
    expect(typeof status.body.expiresAt).toBe('string');
    const page = await (await fetch(pageUrl(deposit.token, '?lang=en'))).text();
    expect(page).toContain('We are checking your transfer');

    // In a final state reporting is still not an error: the page just shows the state.
    await app.commands.execute(
      new ApproveTransactionCommand({ transactionId: deposit.transactionId, actor: { source: 'test' } }),
    );
    expect((await post()).status).toBe(303);
    expect((await statusOf(deposit.token)).body.state).toBe('approved');
  });
});
