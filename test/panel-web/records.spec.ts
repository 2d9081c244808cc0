import type { Browser, BrowserContext, Page } from 'playwright-core';
import { parseBootstrap } from '@transfergate/all-in-one';
import { checkTurkishIban, h2hHash, kurusFrom } from '@transfergate/contracts';
import { CallbackReceiver } from '../callbacks/callback-fixture.js';
import { ISSUE_BOOTSTRAP, postJson, type TestApp } from '../support/test-app.js';
import {
  enableTwoFactorByApi,
  launchBrowser,
  loginInBrowser,
  newPanelContext,
  screenshot,
  startPanelWebApp,
} from './browser.js';

/**
 * The record and log screens in a real browser (Debian's chromium) against a real app on
 * PostgreSQL: an admin with 2FA creates a merchant and a bank account through the forms, reveals
 * and rotates a provider secret behind confirmation dialogs (the new secret works at /test-auth,
 * a double click rotates once), finds the reveal in the audit log, resends a delivered callback
 * from the callback log; an auditor (Turkish UI) sees none of the buttons it may not use.
 * Screenshots of every main screen go to test-artifacts/screenshots/records-*.png.
 */

const ADMIN = { username: 'admin', password: 'S3cure-pass!' };
const AUDITOR = { username: 'denetci', password: 'Denetim-Parola-7' };
/** Generous: the machine is shared and a page may wait for CPU. */
const UI_TIMEOUT_MS = 30_000;
type Row = Record<string, unknown>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A valid Turkish IBAN (mod-97) for a 5-digit bank code and a 16-digit account. */
function turkishIban(bankCode: string, account: string): string {
  const bban = `${bankCode}0${account}`;
  // "TR00" moved to the end, letters as numbers: T=29, R=27.
  const digits = `${bban}292700`;
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return `TR${String(98 - remainder).padStart(2, '0')}${bban}`;
}

/**
 * Every visible form control has an accessible name (a label, aria-label or aria-labelledby). The
 * check runs in the page as text: the repo's typecheck has no DOM library.
 */
const UNLABELLED_INPUTS_JS = `[...document.querySelectorAll('main input, main textarea, [role=dialog] input')]
  .filter((el) => el.type !== 'hidden' && el.offsetParent !== null && !el.closest('[aria-hidden=true]'))
  .filter((el) => (el.labels ? el.labels.length : 0) === 0 && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
  .map((el) => el.outerHTML.slice(0, 160))`;

async function unlabelledInputs(page: Page): Promise<string[]> {
  return (await page.evaluate(UNLABELLED_INPUTS_JS)) as string[];
}

describe('panel web: record and log screens in chromium (PostgreSQL)', () => {
  let app: TestApp;
  let receiver: CallbackReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let acmeSecret = 'sk_test_1';
  const pageErrors: string[] = [];

  const api = async <T = Row>(path: string): Promise<T> => {
    await app.settle();
    const response = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  /** One record of a list route, found by a field's value. */
  const findIn = async (path: string, field: string, value: unknown): Promise<Row> => {
    // The list routes read projections: wait until they applied everything written so far.
    await app.settle();
    const found = (await api<{ items: Row[] }>(path)).items.find((item) => item[field] === value);
    if (!found) throw new Error(`${path}: no item with ${field} = ${String(value)}`);
    return found;
  };
  const apiPost = async (path: string, body: unknown) => {
    const answer = await postJson(`${app.baseUrl}${path}`, body, { authorization: `Bearer ${token}` });
    expect(answer.status).toBe(201);
    return answer.body;
  };
  const open = async (hash: string) => {
    await page.goto(`${app.baseUrl}/admin/#/${hash}`);
  };
  const testAuth = (apiKey: string, apiSecret: string) =>
    fetch(`${app.baseUrl}/test-auth`, { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    const file = structuredClone(ISSUE_BOOTSTRAP);
    file.infrastructures[0]!.callback_deposit = `${receiver.base}/acme/deposit`;
    file.infrastructures[0]!.callback_withdrawal = `${receiver.base}/acme/withdrawal`;
    app = await startPanelWebApp('postgres');
    await app.provision(parseBootstrap(file, 'test'));
    // An API session for the checks, taken before 2FA so the authenticator's steps stay the browser's.
    const login = await postJson(`${app.baseUrl}/api/auth/login`, ADMIN);
    expect(login.status).toBe(201);
    token = String(login.body.accessToken);
    // Enabled from that session, so it survives (2FA ends every other session).
    const authenticator = await enableTwoFactorByApi(app, ADMIN.username, ADMIN.password, token);
    browser = await launchBrowser();
    context = await newPanelContext(browser, 'en');
    page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await loginInBrowser(page, app, { ...ADMIN, authenticator });
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    await receiver?.close();
  });

  it('creates a merchant through the form, shows money as TRY and deactivates it behind a confirmation', async () => {
    await open('merchants');
    await page.getByRole('cell', { name: 'Acme', exact: true }).waitFor();
    // Balances and limits in Turkish money formatting (whatever the UI language).
    await expect(page.getByRole('cell', { name: '₺500.000,00' }).first().isVisible()).resolves.toBe(true);
    await screenshot(page, 'records-merchants-list');

    await page.locator('a[href="#/merchants/create"]').click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Kuzey Bayi');
    await page.getByLabel('Minimum amount').fill('50');
    await page.getByLabel('Maximum amount').fill('250000');
    await page.getByLabel('Overdraft limit').fill('1000');
    await page.getByLabel('Deposit commission (%)').fill('2.5');
    await page.getByLabel('Withdrawal commission (%)').fill('1');
    expect(await unlabelledInputs(page)).toEqual([]);
    await screenshot(page, 'records-merchant-create');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Kuzey Bayi' }).waitFor();

    const created = await findIn('/panel/merchants', 'name', 'Kuzey Bayi');
    expect(created).toMatchObject({
      active: true,
      minAmount: 50,
      maxAmount: 250000,
      overdraftLimit: 1000,
      depositCommissionPercent: 2.5,
      withdrawalCommissionPercent: 1,
    });

    const row = page.getByRole('row').filter({ hasText: 'Kuzey Bayi' });
    await expect(row.getByText('₺250.000,00').isVisible()).resolves.toBe(true);
    await row.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Merchant "Kuzey Bayi" will be deactivated', { exact: false }).waitFor();
    await screenshot(page, 'records-merchant-deactivate-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await row.getByRole('button', { name: 'Activate' }).waitFor();
    expect(await api(`/panel/merchants/${String(created.id)}`)).toMatchObject({ active: false });

    // The edit screen: balance, limits, and the merchant's providers.
    await page.getByRole('cell', { name: 'Acme', exact: true }).click();
    await page.getByRole('cell', { name: 'acme-h2h' }).waitFor();
    expect(await unlabelledInputs(page)).toEqual([]);
    await screenshot(page, 'records-merchant-edit');
  });

  it('creates a bank account through the form and shows its IBAN grouped by four', async () => {
    const iban = turkishIban('00062', '0000000012345678');
    expect(checkTurkishIban(iban).ok).toBe(true);
    const grouped = iban.replace(/(.{4})(?=.)/g, '$1 ');

    await open('bank-accounts');
    await page.getByText('TR33 0006 1005 1978 6457 8413 26').waitFor();
    await page.locator('a[href="#/bank-accounts/create"]').click();
    // Pasted grouped, as operators copy it from a bank statement.
    await page.getByRole('textbox', { name: 'IBAN' }).fill(grouped);
    await page.getByLabel('Bank', { exact: false }).first().fill('Garanti BBVA');
    await page.getByLabel('Account holder').fill('Transfer Ltd');
    await page.getByLabel('Minimum amount').fill('10');
    await page.getByLabel('Maximum amount').fill('100000');
    await page.getByLabel('Daily limit').fill('2000000');
    expect(await unlabelledInputs(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(grouped).waitFor();
    await screenshot(page, 'records-bank-accounts-list');

    const account = await findIn('/panel/bank-accounts', 'iban', iban);
    expect(account).toMatchObject({
      bank: 'Garanti BBVA',
      holderName: 'Transfer Ltd',
      dailyLimit: 2000000,
      active: true,
    });

    // Edit: the IBAN (the record's key) is shown but fixed; a new daily limit is saved.
    await page.getByRole('cell', { name: 'Garanti BBVA' }).click();
    const ibanInput = page.getByRole('textbox', { name: 'IBAN' });
    await expect(ibanInput.inputValue()).resolves.toBe(grouped);
    await expect(ibanInput.isDisabled()).resolves.toBe(true);
    await page.getByLabel('Daily limit').fill('3000000');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Element updated').waitFor();
    expect(await api(`/panel/bank-accounts/${String(account.id)}`)).toMatchObject({ iban, dailyLimit: 3000000 });
    await screenshot(page, 'records-bank-account-edit');
  });

  it('reveals a provider secret (audited) and rotates it once on a double click; the new secret works', async () => {
    await open('providers');
    await page.getByRole('cell', { name: 'acme-h2h' }).waitFor();
    await screenshot(page, 'records-providers-list');
    await page.getByRole('cell', { name: 'acme-h2h' }).click();
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByText('recorded in the audit log', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByLabel('API secret', { exact: true }).inputValue()).resolves.toBe('sk_test_1');
    await expect(page.getByLabel('API key', { exact: true }).last().inputValue()).resolves.toBe('ak_test_1');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    const provider = await findIn('/panel/providers', 'name', 'acme-h2h');
    const configuredEvents = async () =>
      (await api<{ items: Array<{ stream: string }> }>('/panel/audit?type=ProviderConfigured&limit=500')).items.filter(
        (entry) => entry.stream.includes(String(provider.id)),
      ).length;
    const before = await configuredEvents();

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByText('The old one stops working', { exact: false }).waitFor();
    await screenshot(page, 'records-provider-rotate-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).dblclick();
    const secretInput = page.getByLabel('API secret', { exact: true });
    await secretInput.waitFor();
    const rotated = await secretInput.inputValue();
    expect(rotated).toMatch(/^sk_[A-Za-z0-9_-]{40,}$/);
    expect(rotated).not.toBe('sk_test_1');
    await screenshot(page, 'records-provider-secret-dialog');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await screenshot(page, 'records-provider-edit');

    await app.settle();
    expect(await configuredEvents()).toBe(before + 1);
    expect((await testAuth('ak_test_1', rotated)).status).toBe(200);
    // The gateway caches providers for up to 5 s; then the old secret is refused.
    let oldStatus = 0;
    for (let waitedMs = 0; waitedMs <= 10_000; waitedMs += 500) {
      oldStatus = (await testAuth('ak_test_1', 'sk_test_1')).status;
      if (oldStatus === 401) break;
      await sleep(500);
    }
    expect(oldStatus).toBe(401);
    acmeSecret = rotated;
  });

  /** The provider create form with a name, merchant Acme and infrastructure acme chosen. */
  const openProviderForm = async (name: string) => {
    await open('providers/create');
    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await page.getByRole('combobox', { name: 'Merchant' }).click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.getByRole('combobox', { name: 'Infrastructure' }).click();
    await page.getByRole('option', { name: 'acme' }).click();
  };

  it('creates a provider through the form and shows its generated key and secret once; they work', async () => {
    await openProviderForm('kuzey-h2h');
    await page.getByRole('textbox', { name: 'Allowed API IPs' }).fill('127.0.0.1\n10.0.0.0/8');
    expect(await unlabelledInputs(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();

    const apiKey = await page.getByLabel('API key', { exact: true }).last().inputValue();
    const apiSecret = await page.getByLabel('API secret', { exact: true }).inputValue();
    expect(apiKey).toMatch(/^ak_[0-9a-f]{32}$/);
    expect(apiSecret).toMatch(/^sk_[A-Za-z0-9_-]{40,}$/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    // Closing the dialog leads to the new provider's edit screen.
    await page.getByText(apiKey).first().waitFor();
    await expect(page.getByRole('textbox', { name: 'Allowed API IPs' }).inputValue()).resolves.toBe(
      '127.0.0.1\n10.0.0.0/8',
    );

    const created = await findIn('/panel/providers', 'name', 'kuzey-h2h');
    expect(created).toMatchObject({
      apiKey,
      merchantName: 'Acme',
      infrastructureSlug: 'acme',
      active: true,
      sandbox: false,
    });
    expect(created.apiAllowedIps).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect((await testAuth(apiKey, apiSecret)).status).toBe(200);

    // Marked a sandbox provider on its edit screen: its integrator then decides its transactions via /sandbox.
    await page.getByLabel('Sandbox (test)').check();
    await page.getByRole('button', { name: 'Save' }).click();
    for (let i = 0; i < 50 && !(await findIn('/panel/providers', 'name', 'kuzey-h2h')).sandbox; i++) {
      await page.waitForTimeout(200);
    }
    expect(await findIn('/panel/providers', 'name', 'kuzey-h2h')).toMatchObject({ sandbox: true, apiKey });

    // The same name again: the API saves by name and answers created: false without credentials,
    // so the form says so and opens that provider instead of an empty secret dialog.
    await openProviderForm('kuzey-h2h');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('A provider named "kuzey-h2h" already existed').waitFor();
    await page.waitForURL(new RegExp(`#/providers/${created.id}$`));
    expect(await page.getByRole('button', { name: 'I have stored it' }).count()).toBe(0);
    expect(await findIn('/panel/providers', 'name', 'kuzey-h2h')).toMatchObject({ id: created.id, apiKey });
    expect((await testAuth(apiKey, apiSecret)).status).toBe(200);
  });

  it('shows the reveal in the audit log with who, from where and the record before/after', async () => {
    await open('audit');
    // The log reads as sentences; the entry's type stays on the sentence as data-type.
    const revealed = page
      .getByRole('row')
      .filter({ has: page.locator('[data-type="ProviderSecretRevealed"]') })
      .first();
    await revealed.waitFor();
    await expect(revealed.innerText()).resolves.toContain('admin');
    await expect(revealed.innerText()).resolves.toContain('127.0.0.1');
    await expect(revealed.innerText()).resolves.toContain('admin revealed the API secret of the provider');
    const merchantRow = page
      .getByRole('row')
      .filter({ has: page.locator('[data-type="MerchantConfigured"]') })
      .first();
    await merchantRow.click();
    const changes = page.getByRole('table', { name: 'Fields before and after the change' });
    await changes.waitFor();
    await expect(changes.getByRole('row').filter({ hasText: 'active' }).first().innerText()).resolves.toMatch(
      /true\s+false/,
    );
    await screenshot(page, 'records-audit-log');
  });

  it('lists the delivered callback of an approved deposit and resends it behind a confirmation', async () => {
    const externalId = `UI-CB-${Date.now()}`;
    const deposit = await postJson(`${app.baseUrl}/deposit/bank`, {
      apikey: 'ak_test_1',
      transaction_id: externalId,
      amount: 150,
      fullname: 'Ayşe Yılmaz',
      hash: h2hHash('ak_test_1', externalId, acmeSecret, kurusFrom(150)),
    });
    expect(deposit.status).toBe(201);
    const approved = await apiPost('/panel/deposit/approve', { id: await uuidOf(externalId) });
    expect(approved.state).toBe('approved');
    await receiver.waitFor(() => receiver.at('/acme/deposit').length >= 1, 20_000, 'the approval callback');
    // The dispatcher records the 200 a moment after the receiver answered it, and the list does not
    // poll: open it once the delivery is recorded (under load that moment grows).
    const recordedBy = Date.now() + 20_000;
    for (;;) {
      const list = await api<{ items: Array<{ state: string }> }>(
        `/panel/callbacks?transactionId=${encodeURIComponent(externalId)}`,
      );
      if (list.items[0]?.state === 'delivered') break;
      if (Date.now() > recordedBy) throw new Error(`callback of ${externalId} not recorded as delivered`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    await open('callbacks');
    const row = page.getByRole('row').filter({ hasText: externalId });
    await row.getByText('Delivered').waitFor({ timeout: 20_000 });
    await screenshot(page, 'records-callbacks-list');
    await row.getByRole('button', { name: 'Resend' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`${receiver.base}/acme/deposit`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).dblclick();
    await receiver.waitFor(() => receiver.at('/acme/deposit').length >= 2, 20_000, 'the resent callback');
    // One resend for the double click: no third delivery follows.
    await sleep(1_500);
    expect(receiver.at('/acme/deposit')).toHaveLength(2);

    await row.getByRole('cell').first().click();
    await page.getByRole('table', { name: 'Attempts' }).getByText('Manual').waitFor({ timeout: 20_000 });
    await screenshot(page, 'records-callback-show');

    async function uuidOf(id: string): Promise<string> {
      const status = await postJson(
        `${app.baseUrl}/status/${id}`,
        {},
        { 'x-api-key': 'ak_test_1', 'x-api-secret': acmeSecret },
      );
      expect(status.status).toBe(201);
      return String(status.body.uuid);
    }
  });

  it('lists incoming webhooks with their outcome and shows one with headers and body', async () => {
    const answer = await postJson(`${app.baseUrl}/deposit/callback/acme`, {
      transactionId: 'no-such-tx',
      status: 'ok',
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    await open('webhooks');
    const row = page.getByRole('row').filter({ hasText: 'acme' }).first();
    await row.waitFor();
    await screenshot(page, 'records-webhooks-list');
    await row.click();
    await page.getByText('no-such-tx').first().waitFor();
    await screenshot(page, 'records-webhook-show');
  });

  it('shows infrastructures, roles, operators and API settings; creates an auditor through the form', async () => {
    await open('infrastructures');
    await page.getByRole('cell', { name: 'acme', exact: true }).waitFor();
    await screenshot(page, 'records-infrastructures-list');
    await page.getByRole('cell', { name: 'acme', exact: true }).click();
    await page.getByLabel('Deposit callback URL').waitFor();
    expect(await unlabelledInputs(page)).toEqual([]);
    await screenshot(page, 'records-infrastructure-edit');

    await open('roles');
    await page.getByRole('cell', { name: 'auditor', exact: true }).waitFor();
    await screenshot(page, 'records-roles-list');
    await open('roles/create');
    await page.getByRole('textbox', { name: 'Name' }).fill('gece_vardiyasi');
    await page.getByRole('checkbox', { name: /^transactions\.view / }).check();
    await page.getByRole('checkbox', { name: /^transactions\.approve / }).check();
    expect(await unlabelledInputs(page)).toEqual([]);
    await screenshot(page, 'records-role-create');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'gece_vardiyasi' }).click();
    await page.getByRole('checkbox', { name: /^callbacks\.view / }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Element updated').waitFor();
    const role = await api<{ builtIn: boolean; permissions: string[] }>('/panel/roles/gece_vardiyasi');
    expect(role.builtIn).toBe(false);
    expect([...role.permissions].sort()).toEqual(['callbacks.view', 'transactions.approve', 'transactions.view']);

    await open('operators/create');
    await page.getByLabel('Username').fill(AUDITOR.username);
    await page.getByLabel('Role').click();
    await page.getByRole('option', { name: 'auditor' }).click();
    await page.getByLabel('Password', { exact: false }).first().fill(AUDITOR.password);
    expect(await unlabelledInputs(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: AUDITOR.username }).waitFor();
    await screenshot(page, 'records-operators-list');
    const operator = await findIn('/panel/operators', 'username', AUDITOR.username);
    expect(operator).toMatchObject({ role: 'auditor', active: true, twoFactorEnabled: false });

    await open('api-settings');
    await page.getByLabel('Deposit lifetime (minutes)').waitFor();
    await expect(page.getByLabel('Callback retry schedule (seconds)').inputValue()).resolves.toBe(
      '0, 5, 300, 1800, 7200, 18000, 36000, 36000',
    );
    expect(await unlabelledInputs(page)).toEqual([]);
    await screenshot(page, 'records-api-settings');
  });

  it('an auditor (Turkish UI) sees the records but no create, toggle, reveal, rotate or resend button', async () => {
    const auditorContext = await newPanelContext(browser, 'tr');
    try {
      const auditorPage = await auditorContext.newPage();
      auditorPage.setDefaultTimeout(UI_TIMEOUT_MS);
      await loginInBrowser(auditorPage, app, AUDITOR);
      await auditorPage.goto(`${app.baseUrl}/admin/#/merchants`);
      await auditorPage.getByRole('cell', { name: 'Kuzey Bayi' }).waitFor();
      await auditorPage.getByText('Bayiler').first().waitFor();
      expect(await auditorPage.locator('a[href="#/merchants/create"]').count()).toBe(0);
      expect(await auditorPage.getByRole('button', { name: /Aktifleştir|Pasifleştir/ }).count()).toBe(0);
      await screenshot(auditorPage, 'records-merchants-auditor-tr');

      await auditorPage.goto(`${app.baseUrl}/admin/#/providers`);
      await auditorPage.getByRole('cell', { name: 'acme-h2h' }).click();
      await auditorPage.getByLabel('Ad', { exact: false }).first().waitFor();
      expect(await auditorPage.getByRole('button', { name: /Gizli anahtar/ }).count()).toBe(0);
      await expect(auditorPage.getByRole('button', { name: 'Kaydet' }).isDisabled()).resolves.toBe(true);

      await auditorPage.goto(`${app.baseUrl}/admin/#/callbacks`);
      await auditorPage.getByText('Teslim edildi').first().waitFor();
      expect(await auditorPage.getByRole('button', { name: 'Yeniden gönder' }).count()).toBe(0);
      await screenshot(auditorPage, 'records-callbacks-auditor-tr');
    } finally {
      await auditorContext.close();
    }
  });

  it("moves a provider to a merchant from the merchant's form, then deletes the merchant behind a confirmation", async () => {
    await open('merchants');
    await page.getByRole('cell', { name: 'Kuzey Bayi' }).click();
    const providers = page.getByRole('combobox', { name: 'Active providers' });
    await providers.click();
    await providers.fill('kuzey');
    await page.getByRole('option', { name: 'kuzey-h2h' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Element updated').waitFor();
    // The table of the merchant's providers now lists it.
    await page.getByRole('cell', { name: 'kuzey-h2h' }).waitFor();
    expect(await findIn('/panel/providers', 'name', 'kuzey-h2h')).toMatchObject({
      merchantName: 'Kuzey Bayi',
      active: true,
    });

    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Balance and transactions stay', { exact: false }).waitFor();
    await screenshot(page, 'records-merchant-delete-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('cell', { name: 'Acme', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'Kuzey Bayi' }).waitFor({ state: 'detached' });
    // Soft: the merchant stays, marked deleted, listed only on request.
    expect(await findIn('/panel/merchants?includeDeleted=true', 'name', 'Kuzey Bayi')).toMatchObject({
      deleted: true,
      active: false,
    });
  });

  it('raised no uncaught error in the admin page along the way', () => {
    expect(pageErrors).toEqual([]);
  });
});
