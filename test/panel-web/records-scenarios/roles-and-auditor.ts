import { loginInBrowser, newPanelContext, screenshot } from '../browser.js';
import { AUDITOR, UI_TIMEOUT_MS, unlabelledInputs, type RecordsWebFixture } from '../records-fixture.js';

/** Infrastructures, roles, operators and settings; the auditor's read-only view; moving a provider and deleting a merchant. */
export function registerRolesAndAuditor(fixture: () => RecordsWebFixture): void {
  it('shows infrastructures, roles, operators and API settings; creates an auditor through the form', async () => {
    const { page, api, findIn, open } = fixture();
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
    const { app, browser } = fixture();
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
    const { page, findIn, open } = fixture();
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
    const { pageErrors } = fixture();
    expect(pageErrors).toEqual([]);
  });
}
