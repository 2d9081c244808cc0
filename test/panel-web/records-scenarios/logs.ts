import { h2hHash, kurusFrom } from '@transfergate/contracts';
import { postJson } from '../../support/test-app.js';
import { screenshot } from '../browser.js';
import { sleep, type RecordsWebFixture } from '../records-fixture.js';

/** The callback and webhook logs: a delivered callback resent, an incoming webhook shown. */
export function registerLogs(fixture: () => RecordsWebFixture): void {
  it('lists the delivered callback of an approved deposit and resends it behind a confirmation', async () => {
    const { app, receiver, page, shared, api, apiPost, open } = fixture();
    const externalId = `UI-CB-${Date.now()}`;
    const deposit = await postJson(`${app.baseUrl}/deposit/bank`, {
      apikey: 'ak_test_1',
      transaction_id: externalId,
      amount: 150,
      fullname: 'Ayşe Yılmaz',
      hash: h2hHash('ak_test_1', externalId, shared.acmeSecret, kurusFrom(150)),
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
        { 'x-api-key': 'ak_test_1', 'x-api-secret': shared.acmeSecret },
      );
      expect(status.status).toBe(201);
      return String(status.body.uuid);
    }
  });

  it('lists incoming webhooks with their outcome and shows one with headers and body', async () => {
    const { app, page, open } = fixture();
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
}
