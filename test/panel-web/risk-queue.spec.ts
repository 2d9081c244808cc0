import type { Browser, BrowserContext, Page } from 'playwright-core';
import { KEYS, h2hBody } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { ADMIN, CLERK, riskBootstrap } from '../risk/risk-fixture.js';
import { postJson, type TestApp } from '../support/test-app.js';
import { launchBrowser, loginInBrowser, newPanelContext, screenshot, startPanelWebApp } from './browser.js';

/**
 * An operator reviews a deposit a risk rule holds, in headless Chromium on a 390 px phone in Turkish
 * and on a 1440 px desk in English, against a real app on PostgreSQL: the held deposit is in the
 * queue with its chip, offers release and reject but not approve, and once released goes on; the
 * hit and the release are in its history.
 */
describe('the risk queue in the panel (PostgreSQL, Chromium)', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  const run = Date.now();
  let n = 0;

  /** A deposit of a customer the hold rule lists: held. */
  async function heldDeposit(user: string) {
    const externalId = `risk-${++n}-${run}`;
    const created = await postJson(
      `${app.baseUrl}/deposit/bank`,
      h2hBody(KEYS.h2h, externalId, 275, { user_id: user }),
    );
    expect(created.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
    );
    expect(status.body.status).toBe('held');
    return { uuid: String(status.body.uuid), number: Number(status.body.id), externalId };
  }

  beforeAll(async () => {
    app = await startPanelWebApp('postgres');
    await app.provision(riskBootstrap());
    client = panelClient(app);
    admin = (await client.login(ADMIN.username, ADMIN.password)).accessToken;
    const rule = await client.post(
      '/api/panel/risk/rules/save',
      {
        name: 'Review list',
        scope: { level: 'global' },
        check: { kind: 'blocklist', field: 'userId' },
        action: 'hold',
      },
      admin,
    );
    expect(rule.status).toBe(201);
    const entries = await client.post(
      `/api/panel/risk/rules/${String(rule.body.ruleId)}/entries`,
      { csv: 'watched-1,chargeback\nwatched-2,chargeback' },
      admin,
    );
    expect(entries.status).toBe(201);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });
  afterEach(async () => {
    await context?.close();
  });

  it('on a 390 px phone in Turkish, an operator releases a held deposit, which then awaits its payment', async () => {
    const held = await heldDeposit('watched-1');
    context = await browser.newContext({
      locale: 'tr-TR',
      timezoneId: 'Europe/Istanbul',
      viewport: { width: 390, height: 844 },
    });
    page = await context.newPage();
    await loginInBrowser(page, app, CLERK);
    await page.goto(`${app.baseUrl}/admin/#/deposits`);
    const card = page.locator(`[data-testid="queue-card"][data-number="${held.number}"]`);
    await card.waitFor({ timeout: 15_000 });
    await expect(card.locator('[data-state="held"]').textContent()).resolves.toBe('Risk incelemesinde');
    // Release and reject, never approve, while held; nothing wider than the phone.
    await expect(card.getByRole('button', { name: 'Onayla' }).count()).resolves.toBe(0);
    await card.getByRole('button', { name: 'Reddet' }).waitFor();
    // The page's own globals, typed here (the test's tsconfig has no DOM library).
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'risk-queue-phone-tr');
    await card.getByRole('button', { name: 'Serbest bırak' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toContain(`#${held.number} risk kuyruğundan çıkarılsın mı?`);
    await dialog.getByRole('button', { name: 'Serbest bırak' }).click();
    await page.getByText(`İşlem #${held.number} serbest bırakıldı`).waitFor({ timeout: 15_000 });
    const status = await postJson(
      `${app.baseUrl}/status/${held.externalId}`,
      {},
      { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
    );
    expect(status.body.status).toBe('awaiting_payment');
    // Its history says why it was held and who released it.
    await page.goto(`${app.baseUrl}/admin/#/deposits/${held.uuid}/show`);
    const history = page.getByTestId('event-history');
    await history.locator('[data-event-type="RiskHoldReleased"]').waitFor({ timeout: 15_000 });
    const text = (await history.textContent()) ?? '';
    expect(text).toContain('Risk kuralına takıldı');
    expect(text).toContain('Risk kuyruğundan serbest bırakıldı');
    expect(text).toContain(CLERK.username);
    await screenshot(page, 'risk-released-history-tr');
  }, 120_000);

  it('on a 1440 px desk in English, the state filter shows the held ones and a reject ends one', async () => {
    const held = await heldDeposit('watched-2');
    context = await newPanelContext(browser, 'en');
    page = await context.newPage();
    await loginInBrowser(page, app, ADMIN);
    await page.goto(`${app.baseUrl}/admin/#/deposits?filter=${encodeURIComponent(JSON.stringify({ state: 'held' }))}`);
    const row = page.locator('[data-testid="deposit-queue"] tbody tr', { hasText: held.externalId });
    await row.waitFor({ timeout: 15_000 });
    await expect(page.locator('[data-testid="deposit-queue"] tbody tr').count()).resolves.toBe(1);
    await expect(row.locator('[data-state="held"]').textContent()).resolves.toBe('Held for risk review');
    await screenshot(page, 'risk-queue-desk-en');
    await row.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox').first().fill('Chargeback history');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await page.getByText(`Transaction #${held.number} rejected`).waitFor({ timeout: 15_000 });
    const detail = await client.get(`/panel/transactions/${held.uuid}`, admin);
    expect(detail.body).toMatchObject({ state: 'rejected' });
  }, 120_000);
});
