import { checkTurkishIban } from '@transfergate/contracts';
import { screenshot } from '../browser.js';
import { turkishIban, unlabelledInputs, type RecordsWebFixture } from '../records-fixture.js';

/** A merchant and a bank account created, shown and edited through the forms. */
export function registerForms(fixture: () => RecordsWebFixture): void {
  it('creates a merchant through the form, shows money as TRY and deactivates it behind a confirmation', async () => {
    const { page, api, findIn, open } = fixture();
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
    const { page, api, findIn, open } = fixture();
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
}
