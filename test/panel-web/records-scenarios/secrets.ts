import { screenshot } from '../browser.js';
import { unlabelledInputs, type RecordsWebFixture } from '../records-fixture.js';

/** Provider secrets revealed, rotated and generated behind dialogs, and the reveal found in the audit log. */
export function registerSecrets(fixture: () => RecordsWebFixture): void {
  it('reveals a provider secret (audited), rotates it once on a double click: both secrets work until the overlap is ended', async () => {
    const { app, page, shared, api, findIn, open, testAuth } = fixture();
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
    await dialog.getByText('The old one keeps working for the overlap window', { exact: false }).waitFor();
    // The default window is chosen; the choices are listed.
    await expect(dialog.getByRole('combobox', { name: 'Old secret stays valid for' }).textContent()).resolves.toBe(
      'The default window (24 hours)',
    );
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
    await page.getByText('Old secret valid until').waitFor();
    await screenshot(page, 'records-provider-edit');

    await app.settle();
    expect(await configuredEvents()).toBe(before + 1);
    // In the overlap window both secrets work.
    expect((await testAuth('ak_test_1', rotated)).status).toBe(200);
    expect((await testAuth('ak_test_1', 'sk_test_1')).status).toBe(200);

    // Ending the window early: from the answer on only the new secret works.
    await page.getByRole('button', { name: 'End overlap' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByText('stops working at once', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Only the new secret is valid now').waitFor();
    await page.getByRole('button', { name: 'End overlap' }).waitFor({ state: 'detached' });
    expect((await testAuth('ak_test_1', 'sk_test_1')).status).toBe(401);
    expect((await testAuth('ak_test_1', rotated)).status).toBe(200);
    expect(await configuredEvents()).toBe(before + 2);
    shared.acmeSecret = rotated;
  });

  /** The provider create form with a name, merchant Acme and infrastructure acme chosen. */
  const openProviderForm = async (name: string) => {
    const { page, open } = fixture();
    await open('providers/create');
    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await page.getByRole('combobox', { name: 'Merchant' }).click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.getByRole('combobox', { name: 'Infrastructure' }).click();
    await page.getByRole('option', { name: 'acme' }).click();
  };

  it('creates a provider through the form and shows its generated key and secret once; they work', async () => {
    const { page, findIn, testAuth } = fixture();
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
    const { page, open } = fixture();
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
}
