import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { h2hBody } from '../gateway/conformance-fixture.js';
import { issueBootstrap, postJson, type TestApp } from '../support/test-app.js';
import { camt, type SyntheticLine } from '../reconciliation/statement-files.js';
import { launchBrowser, loginInBrowser, newPanelContext, screenshot, startPanelWebApp } from './browser.js';

/**
 * The reconciliation screen in a real browser against a real app on PostgreSQL: an operator
 * uploads a camt.053 file for the receiving account, sees the import report, the queue with each
 * line beside its candidate deposits (reasons, differences), matches one with one click (the
 * deposit is approved), approves a short payment at the received amount, dismisses an unknown
 * credit with a reason; a broken file shows the refusal with its entry.
 */
const ADMIN = { username: 'admin', password: 'S3cure-pass!' };
const KEY = { apiKey: 'ak_test_1', apiSecret: 'sk_test_1' };
const UI_TIMEOUT_MS = 30_000;

describe('reconciliation screen (browser, postgres)', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const dir = mkdtempSync(join(tmpdir(), 'tg-recon-web-'));
  const pageErrors: string[] = [];
  const deps: Array<{ uuid: string; number: number }> = [];

  async function stateOf(uuid: string) {
    const { rows } = await app.db.query<{ state: string; amount: string }>(
      'select state, amount_kurus::text as amount from rm_transactions where transaction_id = $1',
      [uuid],
    );
    return rows[0]!;
  }

  beforeAll(async () => {
    app = await startPanelWebApp('postgres');
    await app.provision(issueBootstrap());
    for (const [i, amount] of [150, 200].entries()) {
      const id = `RW-${i}`;
      expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEY, id, amount))).status).toBe(201);
      const status = await postJson(
        `${app.baseUrl}/status/${id}`,
        {},
        { 'x-api-key': KEY.apiKey, 'x-api-secret': KEY.apiSecret },
      );
      deps.push({ uuid: String(status.body.uuid), number: Number(status.body.id) });
    }
    const day = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const time = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(11, 16);
    const lines: SyntheticLine[] = [
      {
        ref: 'W1',
        day,
        time,
        direction: 'credit',
        amountKurus: 15000n,
        description: `tg ${deps[0]!.number}`,
        name: 'YILMAZ AYŞE',
      },
      {
        ref: 'W2',
        day,
        time,
        direction: 'credit',
        amountKurus: 19950n,
        description: `TG-${deps[1]!.number}`,
        name: 'Ayşe Yılmaz',
      },
      {
        ref: 'W3',
        day,
        time,
        direction: 'credit',
        amountKurus: 98765n,
        description: 'kira',
        name: 'Bilinmeyen Kişi',
      },
    ];
    writeFileSync(join(dir, 'day.xml'), camt(lines));
    writeFileSync(join(dir, 'broken.xml'), camt(lines).replace('<Amt Ccy="TRY">150.00', '<Amt Ccy="TRY">1x0.00'));
    browser = await launchBrowser();
    context = await newPanelContext(browser, 'en');
    page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await loginInBrowser(page, app, ADMIN);
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('import → queue with candidates side by side → match, approve at the received amount, dismiss', async () => {
    await page.goto(`${app.baseUrl}/admin/#/reconciliation`);
    await page.getByTestId('recon-queue-title').waitFor();
    await page.getByTestId('recon-file').setInputFiles(join(dir, 'broken.xml'));
    await page.getByTestId('recon-upload').click();
    await page.getByTestId('recon-problems').waitFor();
    expect(await page.getByTestId('recon-problems').innerText()).toMatch(/entry 1: not an amount/);

    await page.getByTestId('recon-file').setInputFiles(join(dir, 'day.xml'));
    await page.getByTestId('recon-upload').click();
    await page.getByTestId('recon-report').waitFor();
    expect(await page.getByTestId('recon-report').innerText()).toMatch(/3 lines in the file: 3 new/);
    await page.locator('[data-testid=recon-line]').nth(2).waitFor();
    expect(await page.locator('[data-testid=recon-line]').count()).toBe(3);
    const w1 = page.locator('[data-testid=recon-line][data-reference=W1]');
    expect(await w1.innerText()).toMatch(new RegExp(`TG-${deps[0]!.number}[\\s\\S]*strong[\\s\\S]*amount equal`));
    await screenshot(page, 'reconciliation-queue');

    await w1.getByTestId('recon-match').click();
    await w1.waitFor({ state: 'detached' });
    expect((await stateOf(deps[0]!.uuid)).state).toBe('approved');

    const w2 = page.locator('[data-testid=recon-line][data-reference=W2]');
    expect(await w2.innerText()).toMatch(/paid less/);
    await w2.getByTestId('recon-match-received').click();
    await w2.waitFor({ state: 'detached' });
    expect(await stateOf(deps[1]!.uuid)).toEqual({ state: 'approved', amount: '19950' });

    const w3 = page.locator('[data-testid=recon-line][data-reference=W3]');
    expect(await w3.innerText()).toMatch(/unknown credit/);
    await w3.getByTestId('recon-reason').fill('rent, not a deposit');
    await w3.getByTestId('recon-dismiss').click();
    await w3.waitFor({ state: 'detached' });
    const { rows } = await app.db.query<{ state: string; reason: string }>(
      `select s.state, s.record->>'reason' as reason
       from rm_statement_line_status s join rm_statement_lines l on l.line_id = s.line_id
       where l.record->>'bankReference' = 'W3'`,
    );
    expect(rows).toEqual([{ state: 'dismissed', reason: 'rent, not a deposit' }]);
    await page.getByText('Nothing to decide for this account.').waitFor();
    // The day's summary follows the decisions: 150 + 199.50 matched, 987.65 dismissed, nothing unmatched.
    await page
      .getByTestId('recon-summary')
      .getByText(/matched ₺349,50, ignored ₺987,65, unmatched ₺0,00/)
      .waitFor();
    await screenshot(page, 'reconciliation-done');
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
