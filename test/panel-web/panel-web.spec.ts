import type { Browser, Page } from 'playwright-core';
import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { issueBootstrap, postJson, type TestApp } from '../support/test-app.js';
import { panelClient } from '../panel/panel-client.js';
import { CB_IBAN, CB_KEYS, CallbackReceiver, callbackBootstrap, h2hRequest } from '../callbacks/callback-fixture.js';
import {
  enableTwoFactorByApi,
  launchBrowser,
  loginInBrowser,
  newPanelContext,
  screenshot,
  startPanelWebApp,
  unlabelledInputs,
  Authenticator,
} from './browser.js';

/** Turkish TRY formatting as the UI must show it (the same Intl rules, independent of the UI code). */
const tryText = (lira: number) =>
  new Intl.NumberFormat('tr-TR', { style: 'currency', currency: 'TRY', minimumFractionDigits: 2 }).format(lira);

/**
 * The operator UI in headless Chromium against a real app (PostgreSQL, real HTTP): sign-in with a
 * real TOTP code, a deposit created through the gateway appearing in the queue by itself, approval
 * through the confirmation dialog (a double click fires once), the merchant balance and the
 * delivered callback, a withdrawal rejected by keyboard only, and an operator without the approve
 * permission who sees no approve button. Builds apps/panel-web first when its dist is missing.
 */
describe('panel web UI in Chromium (PostgreSQL)', () => {
  let app: TestApp;
  let receiver: CallbackReceiver;
  let browser: Browser;
  let authenticator: Authenticator;
  let client: ReturnType<typeof panelClient>;
  let adminToken: string;
  let page: Page;
  const run = Date.now();
  const pageErrors: string[] = [];

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    app = await startPanelWebApp('postgres', {
      callbacks: { retryScheduleMs: [0, 200, 200, 200], requestTimeoutMs: 1_000, leaseMs: 3_000, pollIntervalMs: 100 },
    });
    await app.provision(callbackBootstrap(receiver.base));
    await app.provision(issueBootstrap());
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: 'viewer', password: 'Viewer-pass-12', role: 'auditor', active: true },
        { source: 'test' },
      ),
    );
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: 'clerk', password: 'Clerk-pass-123', role: 'operator', active: true },
        { source: 'test' },
      ),
    );
    await app.settle();
    authenticator = await enableTwoFactorByApi(app, 'admin', 'S3cure-pass!');
    client = panelClient(app);
    browser = await launchBrowser();
    page = await (await newPanelContext(browser, 'en')).newPage();
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await receiver?.close();
  });

  /** An API session for checks (2FA: password, then a TOTP code). */
  async function adminApiToken(): Promise<string> {
    adminToken ??= await (async () => {
      const login = await client.post('/api/auth/login', { username: 'admin', password: 'S3cure-pass!' });
      const verify = await client.post('/api/auth/2fa/verify', {
        challengeToken: login.body.challengeToken,
        code: await authenticator.next(),
      });
      expect(verify.status).toBe(201);
      return verify.body.accessToken as string;
    })();
    return adminToken;
  }

  async function createByGateway(kind: 'deposit' | 'withdrawal', externalId: string, amount: number) {
    const res = await postJson(`${app.baseUrl}/${kind}/bank`, {
      ...h2hRequest(CB_KEYS.h2h, externalId, amount),
      ...(kind === 'withdrawal' ? { iban: CB_IBAN } : {}),
    });
    expect(res.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': CB_KEYS.h2h.apiKey, 'x-api-secret': CB_KEYS.h2h.apiSecret },
    );
    return { uuid: String(status.body.uuid), number: Number(status.body.id) };
  }

  async function detailOf(uuid: string) {
    const res = await client.get(`/panel/transactions/${uuid}`, await adminApiToken());
    expect(res.status).toBe(200);
    return res.body;
  }

  it('serves the UI under /admin/ with a strict CSP and a per-request nonce', async () => {
    const first = await fetch(`${app.baseUrl}/admin/`);
    const second = await fetch(`${app.baseUrl}/admin/`);
    expect(first.status).toBe(200);
    const csp = first.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(await first.text()).toContain(`nonce="${nonce}"`);
    expect(second.headers.get('content-security-policy')).not.toBe(csp);
    const redirect = await fetch(`${app.baseUrl}/admin`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/admin/');
  });

  it('signs in with password and a real TOTP code and shows the dashboard', async () => {
    const cspErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    await page.goto(`${app.baseUrl}/admin/#/login`);
    await page.locator('#username').waitFor();
    await expect(unlabelledInputs(page)).resolves.toEqual([]);
    await screenshot(page, 'login');
    await loginInBrowser(page, app, { username: 'admin', password: 'S3cure-pass!', authenticator });
    await page.getByTestId('deposit-pending').waitFor();
    await screenshot(page, 'dashboard');
    expect(cspErrors).toEqual([]);
  }, 60_000);

  it('a gateway deposit appears in the queue by itself; approving it fires once; balance and callback follow', async () => {
    const amount = 1250.5;
    const externalId = `ui-dep-${run}`;
    await page.goto(`${app.baseUrl}/admin/#/deposits`);
    await page
      .getByTestId('deposit-queue')
      .or(page.getByText('No Deposits', { exact: false }))
      .first()
      .waitFor();
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    const balanceBefore = await merchantBalance();

    const created = await createByGateway('deposit', externalId, amount);
    const row = page.locator('tr', { hasText: externalId });
    await row.waitFor({ timeout: 15_000 });
    expect(navigations).toBe(0); // it arrived by polling, not by a reload
    await expect(row.textContent()).resolves.toContain(tryText(amount));
    await expect(unlabelledInputs(page)).resolves.toEqual([]);
    await screenshot(page, 'deposit-queue');

    await row.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const summary = await dialog.getByTestId('action-summary').textContent();
    expect(summary).toContain(tryText(amount));
    expect(summary).toContain('Ayşe Yılmaz');
    await screenshot(page, 'approve-dialog');
    // Amount edit dialog: labelled input, and its summary shows old and new amount for the customer.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Edit amount' }).click();
    await dialog.getByLabel('New amount (TRY)').fill('1300,75');
    await expect(dialog.getByTestId('action-summary').textContent()).resolves.toBe(
      `${tryText(amount)} → ${tryText(1300.75)} for Ayşe Yılmaz`,
    );
    await expect(unlabelledInputs(page)).resolves.toEqual([]);
    await screenshot(page, 'amount-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Approve' }).click();
    await dialog.waitFor();
    const approveRequests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/panel/deposit/approve'))
        approveRequests.push(request.url());
    });
    await dialog.getByRole('button', { name: 'Approve' }).dblclick();
    await page.getByText(`Transaction #${created.number} approved`).waitFor();
    await row.waitFor({ state: 'detached', timeout: 15_000 }); // the default filter shows open ones only

    // One request, one event (the server would refuse a second approval, so count the requests too).
    expect(approveRequests).toHaveLength(1);
    const detail = await detailOf(created.uuid);
    expect(detail.state).toBe('approved');
    const approvals = (detail.history as Array<{ type: string }>).filter((e) => e.type === 'TransactionApproved');
    expect(approvals).toHaveLength(1);

    const callback = await receiver.waitFor(
      () => receiver.at('/cb-h2h/deposit').find((r) => r.body.transactionId === externalId),
      15_000,
      'the deposit callback',
    );
    expect(callback.body).toMatchObject({ transactionId: externalId, status: 'APPROVED' });

    // The detail: event history and the delivered callback (the page refreshes by itself).
    await page.goto(`${app.baseUrl}/admin/#/deposits/${created.uuid}/show`);
    await page
      .getByTestId('event-history')
      .locator('[data-event-type="TransactionApproved"]')
      .waitFor()
      .catch(async (error: unknown) => {
        await screenshot(page, 'debug-detail');
        console.log(pageErrors.join('\n'));
        throw error;
      });
    await page.locator('[data-testid="callback-delivery"][data-state="delivered"]').waitFor({ timeout: 15_000 });
    await expect(page.getByTestId('transaction-detail').textContent()).resolves.toContain('Resend callback');
    await screenshot(page, 'transaction-detail');

    // Resend: one more delivery with the same webhook-id, recorded as a manual attempt.
    const deliveredBefore = receiver.at('/cb-h2h/deposit').filter((r) => r.body.transactionId === externalId).length;
    await page.getByRole('button', { name: 'Resend callback' }).click();
    await page.getByText('Callback queued for sending again').waitFor();
    const resent = await receiver.waitFor(
      () => {
        const all = receiver.at('/cb-h2h/deposit').filter((r) => r.body.transactionId === externalId);
        return all.length > deliveredBefore ? all : undefined;
      },
      15_000,
      'the resent callback',
    );
    expect(resent.map((r) => r.headers['webhook-id'])).toEqual([
      callback.headers['webhook-id'],
      callback.headers['webhook-id'],
    ]);
    await page.locator('tr[data-outcome="success"]', { hasText: 'manual' }).waitFor({ timeout: 15_000 });

    // The merchant's balance moved by the approved deposit (less its commission) and the UI shows it.
    const balanceAfter = await merchantBalance();
    expect(balanceAfter).toBeGreaterThan(balanceBefore);
    await page.goto(`${app.baseUrl}/admin/#/merchants`);
    // The row shows the balance (and the available amount, equal here).
    await page.locator('tr', { hasText: 'Callbacks' }).getByText(tryText(balanceAfter)).first().waitFor();
    await screenshot(page, 'merchants-balance');

    // The dashboard counts it: today's approved deposit volume, nothing left waiting.
    await page.goto(`${app.baseUrl}/admin/#/`);
    // (The page may first show the figures it cached before the approval, then refetches.)
    await page
      .getByTestId('deposit-volume')
      .filter({ hasText: tryText(amount) })
      .waitFor({ timeout: 10_000 });
    await expect(page.getByTestId('deposit-pending').textContent()).resolves.toBe('0');
    await screenshot(page, 'dashboard-after-approval');
  }, 90_000);

  async function merchantBalance(): Promise<number> {
    const res = await client.get('/panel/merchants?limit=200', await adminApiToken());
    expect(res.status).toBe(200);
    const items = (res.body.items ?? res.body.data ?? res.body) as Array<{ name: string; balance: number }>;
    const merchant = items.find((m) => m.name === 'Callbacks');
    if (!merchant) throw new Error(`no Callbacks merchant in ${JSON.stringify(res.body).slice(0, 300)}`);
    return merchant.balance;
  }

  it('rejects a withdrawal with a reason using the keyboard only', async () => {
    const externalId = `ui-wd-${run}`;
    const created = await createByGateway('withdrawal', externalId, 300);
    await page.goto(`${app.baseUrl}/admin/#/withdrawals`);
    const row = page.locator('tr', { hasText: externalId });
    await row.waitFor({ timeout: 15_000 });
    await screenshot(page, 'withdrawal-queue');

    // Assign (pre-filled with the signed-in operator): the queue shows the assignee.
    await row.getByRole('button', { name: 'Assign' }).click();
    const assignDialog = page.getByRole('dialog');
    await expect(assignDialog.getByLabel('Operator username').inputValue()).resolves.toBe('admin');
    await assignDialog.getByRole('button', { name: 'Assign' }).click();
    await page.getByText(`Transaction #${created.number} assigned`).waitFor();
    await assignDialog.waitFor({ state: 'detached' });
    await row.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    // The API keeps the operator's id; the UI shows the name.
    const adminId = (await client.get('/api/auth/me', await adminApiToken())).body.id;
    await expect(detailOf(created.uuid)).resolves.toMatchObject({ assignee: adminId });

    await row.getByRole('button', { name: 'Reject' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // The reason field has the focus and a label; Escape closes, Enter confirms.
    await dialog.locator(':focus').waitFor(); // focus moves into the dialog as it opens
    const focusedId = await page.locator(':focus').getAttribute('id');
    await expect(page.locator(`label[for="${focusedId}"]`).textContent()).resolves.toContain(
      'Reason for the rejection',
    );
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Reject' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.type('IBAN holder name does not match');
    await screenshot(page, 'reject-dialog');
    await page.keyboard.press('Enter');
    await page.getByText(`Transaction #${created.number} rejected`).waitFor();

    const detail = await detailOf(created.uuid);
    expect(detail).toMatchObject({ state: 'rejected', reason: 'IBAN holder name does not match' });
    await receiver.waitFor(
      () => receiver.at('/cb-h2h/withdrawal').find((r) => r.body.transactionId === externalId),
      15_000,
      'the withdrawal callback',
    );

    // Filters: the default "open only" hides it now; state "Rejected" and the text search find it.
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Rejected' }).click();
    await row.waitFor({ timeout: 15_000 });
    await page.getByLabel('Search').fill(externalId);
    await expect(page.locator('[data-testid="withdrawal-queue"] tbody tr').count()).resolves.toBeGreaterThan(0);
    await page.waitForFunction(
      (id) =>
        [
          ...(
            globalThis as unknown as { document: { querySelectorAll(s: string): Array<{ textContent: string }> } }
          ).document.querySelectorAll('[data-testid="withdrawal-queue"] tbody tr'),
        ].every((tr) => tr.textContent.includes(id)),
      externalId,
    );
    await page.getByLabel('Search').fill('no-such-transaction');
    await row.waitFor({ state: 'detached', timeout: 15_000 });
  }, 90_000);

  it('the menu lists only the screens the operator may read', async () => {
    const clerkPage = await (await newPanelContext(browser, 'en')).newPage();
    await loginInBrowser(clerkPage, app, { username: 'clerk', password: 'Clerk-pass-123' });
    const menu = clerkPage.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Deposits' }).waitFor({ timeout: 15_000 });
    // The built-in operator role: queues, merchants, providers, bank accounts, callback and webhook logs.
    for (const visible of ['Withdrawals', 'Merchants', 'Providers', 'Bank accounts', 'Callback log']) {
      await expect(menu.getByRole('menuitem', { name: visible }).count()).resolves.toBe(1);
    }
    for (const hidden of ['Operators', 'Roles', 'Audit log', 'API settings', 'Infrastructures']) {
      await expect(menu.getByRole('menuitem', { name: hidden }).count()).resolves.toBe(0);
    }
    await clerkPage.context().close();
  }, 60_000);

  it('an operator without the approve permission sees the queue but no approve button', async () => {
    const externalId = `ui-view-${run}`;
    await createByGateway('deposit', externalId, 75);
    const context = await newPanelContext(browser, 'tr');
    const viewerPage = await context.newPage();
    await loginInBrowser(viewerPage, app, { username: 'viewer', password: 'Viewer-pass-12' });
    await viewerPage.goto(`${app.baseUrl}/admin/#/deposits`);
    const row = viewerPage.locator('tr', { hasText: externalId });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.textContent()).resolves.toContain(tryText(75));
    await expect(row.getByRole('button').count()).resolves.toBe(0);
    await expect(viewerPage.getByRole('button', { name: /Onayla|Approve/ }).count()).resolves.toBe(0);
    await screenshot(viewerPage, 'deposit-queue-viewer-tr');

    // An expired access token is refreshed once, behind the scenes: the queue keeps working.
    const stale = await viewerPage.evaluate(() => {
      const storage = (
        globalThis as unknown as {
          sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
        }
      ).sessionStorage;
      const previous = storage.getItem('tg.refreshToken');
      storage.setItem('tg.accessToken', 'expired.token.value');
      return previous;
    });
    await viewerPage.reload();
    await row.waitFor({ timeout: 15_000 });
    const refreshed = await viewerPage.evaluate(() =>
      (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem(
        'tg.refreshToken',
      ),
    );
    expect(refreshed).toBeTruthy();
    expect(refreshed).not.toBe(stale); // the refresh token rotated

    // 2FA setup from the user menu's page: QR code from the API, confirmed with a real code.
    await viewerPage.goto(`${app.baseUrl}/admin/#/two-factor`);
    await viewerPage.getByRole('button', { name: 'İki adımlı doğrulamayı kur' }).click();
    await viewerPage.getByTestId('two-factor-qr').waitFor();
    await expect(viewerPage.getByTestId('two-factor-qr').getAttribute('src')).resolves.toMatch(
      /^data:image\/png;base64,/,
    );
    const manual = await viewerPage.getByText('Ya da bu anahtarı elle girin').textContent();
    const secret = /([A-Z2-7]{32})/.exec(manual ?? '')?.[1];
    expect(secret).toBeTruthy();
    await screenshot(viewerPage, 'two-factor-setup');
    await viewerPage.getByLabel('Doğrulama kodu').fill(await new Authenticator(secret!).next());
    await viewerPage.getByRole('button', { name: 'Onayla' }).click();
    await viewerPage.getByText('İki adımlı doğrulama açıldı').waitFor();
    await app.settle();
    const login = await client.post('/api/auth/login', { username: 'viewer', password: 'Viewer-pass-12' });
    expect(login.body).toMatchObject({ twoFactorRequired: true });

    // Logout from the user menu ends the session on the server too: its refresh token is dead.
    const current = await viewerPage.evaluate(() =>
      (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem(
        'tg.refreshToken',
      ),
    );
    expect(current).toBeTruthy();
    await viewerPage.getByRole('button', { name: 'Profil' }).click();
    await viewerPage.getByRole('menuitem', { name: 'Çıkış yap' }).click();
    await viewerPage.locator('#username').waitFor();
    const refresh = await client.post('/api/auth/refresh', { refreshToken: current });
    expect(refresh.status).toBe(401);
    await expect(
      viewerPage.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem(
          'tg.refreshToken',
        ),
      ),
    ).resolves.toBeNull();
    await context.close();
  }, 90_000);
});
