import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { h2hBody } from '../gateway/conformance-fixture.js';
import { camt, type SyntheticLine } from '../reconciliation/statement-files.js';
import { issueBootstrap, postJson, type TestApp } from '../support/test-app.js';
import { panelClient } from '../panel/panel-client.js';
import { launchBrowser, loginInBrowser, newPanelContext, screenshot, startPanelWebApp } from './browser.js';

/**
 * The Turkish panel as operators use it, at a desktop's 1440 px and a phone's 390 px, in headless
 * Chromium against a real app on PostgreSQL: the reconciliation screen in Turkish (reasons,
 * formats, layouts), candidates that say whose deposit it is, "Bağla" for an approved deposit and
 * "Yok say" with preset reasons, the audit log's reconciliation sentences, and queues and dialogs
 * that fit a phone.
 */
const ADMIN = { username: 'admin', password: 'S3cure-pass!' };
const UI_TIMEOUT_MS = 30_000;
const PHONE = { width: 390, height: 844 };
/** The one provider of issueBootstrap: its deposits all go to the one receiving account the screen opens on. */
const KEY = { apiKey: 'ak_test_1', apiSecret: 'sk_test_1' };

// DOM globals inside page.evaluate (the test's own tsconfig has no DOM lib).
interface DomRect {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
}
interface DomElement {
  getBoundingClientRect(): DomRect;
  tagName: string;
  className: unknown;
  getAttribute(name: string): string | null;
}
type Dom = {
  document: { documentElement: { scrollWidth: number }; querySelectorAll(s: string): Iterable<DomElement> };
};

/** The page's width and the visible elements that stick out to the right of the viewport. */
async function widthReport(page: Page): Promise<{ scrollWidth: number; outside: string[] }> {
  // Against the device's width, not innerWidth: on a phone the layout viewport grows with wide content.
  return page.evaluate((deviceWidth) => {
    const dom = globalThis as unknown as Dom;
    const outside: string[] = [];
    for (const element of dom.document.querySelectorAll('body *')) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > deviceWidth + 0.5) {
        outside.push(
          `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}[${element.getAttribute('data-testid') ?? ''}] ${Math.round(box.left)}-${Math.round(box.right)}`,
        );
      }
    }
    return {
      scrollWidth: dom.document.documentElement.scrollWidth,
      outside: outside
        .filter(
          (o) =>
            !/ 0-\d+$|^(div|main|header)\.(layout|RaLayout|MuiToolbar|MuiPaper-root MuiPaper-elevation MuiPaper-elevation4)/.test(
              o,
            ),
        )
        .slice(0, 25),
    };
  }, PHONE.width);
}

/** A button is usable one-handed when all of it is inside the viewport. */
async function insideViewport(page: Page, locator: ReturnType<Page['locator']>): Promise<boolean> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return (
    box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height
  );
}

describe('the Turkish panel at 1440 and 390 px (PostgreSQL, Chromium)', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  const dir = mkdtempSync(join(tmpdir(), 'tg-usability-'));
  const pageErrors: string[] = [];
  const run = Date.now();
  let n = 0;

  async function deposit(amount: number, fullname: string) {
    const externalId = `use-${++n}-${run}`;
    const created = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEY, externalId, amount, { fullname }));
    expect(created.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': KEY.apiKey, 'x-api-secret': KEY.apiSecret },
    );
    return { uuid: String(status.body.uuid), number: Number(status.body.id), externalId };
  }

  beforeAll(async () => {
    app = await startPanelWebApp('postgres');
    await app.provision(issueBootstrap());
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
    rmSync(dir, { recursive: true, force: true });
  });

  it('reconciliation in Turkish: formats, reasons, whose deposit, Bağla, Yok say; the audit log names file, line and deposit', async () => {
    const paid = await deposit(150, 'Ayşe Yılmaz');
    const short = await deposit(200, 'Mehmet Kaya');
    const early = await deposit(300, 'Zeynep Demir');
    // Approved by hand before its bank line arrives: the line is only linked to it.
    expect((await client.post('/panel/deposit/approve', { id: early.uuid }, admin)).status).toBe(201);
    const now = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const [day, time] = [now.slice(0, 10), now.slice(11, 16)];
    const lines: SyntheticLine[] = [
      {
        ref: 'U1',
        day,
        time,
        direction: 'credit',
        amountKurus: 15000n,
        description: `TG-${paid.number}`,
        name: 'Ali Veli',
      },
      {
        ref: 'U2',
        day,
        time,
        direction: 'credit',
        amountKurus: 19950n,
        description: `TG-${short.number}`,
        name: 'Mehmet Kaya',
      },
      {
        ref: 'U3',
        day,
        time,
        direction: 'credit',
        amountKurus: 30000n,
        description: `TG-${early.number}`,
        // Another sender: not certain enough to be linked by itself.
        name: 'Hasan Öz',
      },
      { ref: 'U4', day, time, direction: 'credit', amountKurus: 98765n, description: 'kira', name: 'Bilinmeyen Kişi' },
    ];
    writeFileSync(join(dir, 'gun-sonu.xml'), camt(lines));

    await page.goto(`${app.baseUrl}/admin/#/reconciliation`);
    await page.getByTestId('recon-queue-title').waitFor();
    await page.getByTestId('recon-format').locator('xpath=..').click();
    const formats = await page.getByRole('option').allTextContents();
    expect(formats).toEqual([
      'camt.053 (gün sonu ekstresi)',
      'camt.052 (gün içi rapor)',
      'MT940 (SWIFT ekstresi)',
      'CSV (banka dökümü)',
      'Excel (XLSX banka dökümü)',
    ]);
    await page.getByRole('option').first().click();
    await page.getByTestId('recon-file').setInputFiles(join(dir, 'gun-sonu.xml'));
    await page.getByTestId('recon-upload').click();
    await page.getByTestId('recon-report').waitFor();
    await page.locator('[data-testid=recon-line]').nth(3).waitFor();

    const u1 = page.locator('[data-testid=recon-line][data-reference=U1]');
    const u1Text = await u1.innerText();
    // Whose deposit, how much, its state, beside the reference; the reasons in Turkish.
    expect(u1Text).toMatch(new RegExp(`TG-${paid.number}[\\s\\S]*Ayşe Yılmaz · ₺150,00 · Ödeme bekleniyor`));
    expect(u1Text).toContain(`açıklamada TG-${paid.number} referansı var`);
    expect(u1Text).toContain('tutar aynı');
    expect(u1Text).toContain('gönderen adı müşteriden farklı');
    const u2Text = await page.locator('[data-testid=recon-line][data-reference=U2]').innerText();
    expect(u2Text).toContain('tutar farkı -₺0,50');
    const queueText = await page.locator('[data-testid=recon-line]').allInnerTexts();
    expect(queueText.join('\n')).not.toMatch(/in the description|amount equal|amount differs|sender name|min after/);

    // An approved deposit offers "Bağla", not "Eşleştir ve onayla".
    const u3 = page.locator('[data-testid=recon-line][data-reference=U3]');
    expect(await u3.getByTestId('recon-match').count()).toBe(0);
    await expect(u3.getByTestId('recon-link').innerText()).resolves.toMatch(/^bağla$/i);
    await screenshot(page, 'usability-recon-queue-tr');
    await u3.getByTestId('recon-link').click();
    await u3.waitFor({ state: 'detached' });

    // "Yok say" with a preset reason.
    const u4 = page.locator('[data-testid=recon-line][data-reference=U4]');
    await expect(u4.getByTestId('recon-dismiss').innerText()).resolves.toMatch(/^yok say$/i);
    await u4.locator('[data-testid=recon-reason-preset][data-preset=not_a_deposit]').click();
    await u4.getByTestId('recon-dismiss').click();
    await u4.waitFor({ state: 'detached' });
    const { rows } = await app.db.query<{ reason: string }>(
      `select s.record->>'reason' as reason from rm_statement_line_status s
       join rm_statement_lines l on l.line_id = s.line_id where l.record->>'bankReference' = 'U4'`,
    );
    expect(rows).toEqual([{ reason: 'Yatırım değil (kira, maaş, başka ödeme)' }]);

    await page.locator('[data-testid=recon-line][data-reference=U1]').getByTestId('recon-match').click();
    await page.locator('[data-testid=recon-line][data-reference=U1]').waitFor({ state: 'detached' });

    // The deposit's history links to the bank line that paid it.
    await page.goto(`${app.baseUrl}/admin/#/deposits/${paid.uuid}/show`);
    const paidBy = page.getByTestId('paid-by-line');
    expect(await paidBy.innerText()).toBe(
      `Ödeyen banka satırı U1 (₺150,00, ${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)})`,
    );
    await paidBy.click();
    expect(await page.getByTestId('recon-line-shown').innerText()).toMatch(
      new RegExp(`Banka satırı · TG-${paid.number}[\\s\\S]*U1`),
    );

    // The audit log: one sentence per import, match and dismissal, naming the file, the line and the deposit.
    await page.goto(`${app.baseUrl}/admin/#/audit`);
    await page.locator('span[data-type=StatementImported]').first().waitFor();
    const sentences = (await page.locator('span[data-type^=Statement]').allInnerTexts()).map((t) => t.trim());
    const shownDay = `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;
    const lineText = (ref: string, amount: string) => `${ref} (${amount}, ${shownDay}, “gun-sonu.xml” dosyası)`;
    expect(sentences).toEqual([
      `admin, ${lineText('U1', '₺150,00')} banka satırını #${paid.number} numaralı yatırımla eşleştirip onayladı`,
      `admin, ${lineText('U4', '₺987,65')} banka satırını yok saydı: Yatırım değil (kira, maaş, başka ödeme)`,
      `admin, ${lineText('U3', '₺300,00')} banka satırını önceden onaylanmış #${early.number} numaralı yatırıma bağladı`,
      'admin, “gun-sonu.xml” banka ekstresi dosyasını yükledi (camt.053): 4 satır, 4 yeni, 0 daha önce yüklenmiş',
    ]);
    expect((await page.locator('span[data-type]').allInnerTexts()).join('\n')).not.toContain('bir değişiklik yaptı');
    await screenshot(page, 'usability-audit-recon-tr');
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it('at 390 px nothing is wider than the phone; queue buttons and the approve dialog stay on screen', async () => {
    const target = await deposit(420, 'Telefon Müşterisi');
    // A phone of its own (a fresh browser profile, touch, 390 px wide), as an operator on the move has.
    const phone = await browser.newContext({
      locale: 'tr-TR',
      timezoneId: 'Europe/Istanbul',
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    const page = await phone.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await loginInBrowser(page, app, ADMIN);
      expect(await widthReport(page)).toEqual({ scrollWidth: PHONE.width, outside: [] });
      await page.goto(`${app.baseUrl}/admin/#/deposits`);
      const card = page.locator(`[data-testid=queue-card][data-number="${target.number}"]`);
      await card.waitFor();
      expect(await widthReport(page)).toEqual({ scrollWidth: PHONE.width, outside: [] });
      await screenshot(page, 'usability-queue-390');
      expect(await card.innerText()).toMatch(/Ödeme bekleniyor/);
      const approve = card.getByRole('button', { name: 'Onayla' });
      expect(await insideViewport(page, approve)).toBe(true);
      expect(await insideViewport(page, card.getByRole('button', { name: 'Reddet' }))).toBe(true);
      await approve.click();
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('approve-checks').waitFor();
      expect((await widthReport(page)).outside).toEqual([]);
      expect(
        await insideViewport(
          page,
          dialog
            .getByTestId('approve-checks')
            .getByText(/^TR\d{2} /)
            .first(),
        ),
      ).toBe(true);
      expect(await insideViewport(page, dialog.getByRole('button', { name: 'Onayla' }))).toBe(true);
      await screenshot(page, 'usability-approve-390');
      await dialog.getByRole('button', { name: 'Vazgeç' }).click();

      // A bank line paying it, with a long description, waits on the reconciliation screen.
      const { rows } = await app.db.query<{ id: string }>(
        'select bank_account_id as id from rm_transactions where transaction_id = $1',
        [target.uuid],
      );
      const now = new Date(Date.now() + 3 * 3_600_000).toISOString();
      const uploaded = await fetch(
        `${app.baseUrl}/panel/reconciliation/accounts/${rows[0]!.id}/statements?format=camt053&fileName=telefon.xml`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${admin}` },
          body: camt([
            {
              ref: 'PHONE1',
              day: now.slice(0, 10),
              time: now.slice(11, 16),
              direction: 'credit',
              amountKurus: 42000n,
              description: `TG-${target.number} HAVALE/EFT GONDEREN:TELEFONMUSTERISIUZUNACIKLAMAMETNIBOSLUKSUZ`,
              name: 'Başka Gönderen',
            },
          ]),
        },
      );
      expect(uploaded.status).toBe(201);
      await page.goto(`${app.baseUrl}/admin/#/reconciliation`);
      // Measured once the account, its summary and the queue are in (they widen the page if anything does).
      await page
        .getByTestId('recon-summary')
        .getByText(/Ekstre:/)
        .waitFor();
      await page
        .getByText('Bu hesap için karar bekleyen satır yok.')
        .or(page.getByTestId('recon-line').first())
        .waitFor();
      expect(await widthReport(page)).toEqual({ scrollWidth: PHONE.width, outside: [] });
      const phoneLine = page.locator('[data-testid=recon-line][data-reference=PHONE1]');
      expect(await insideViewport(page, phoneLine.getByTestId('recon-match'))).toBe(true);
      expect(await insideViewport(page, phoneLine.getByTestId('recon-dismiss'))).toBe(true);
      await screenshot(page, 'usability-recon-390');
    } finally {
      await phone.close();
    }
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('a new deposit shows on the page: a badge on Yatırımlar, a snackbar, the dashboard counts at once', async () => {
    // Deposits made by the tests before were announced already: looking at the queue clears them.
    await page.goto(`${app.baseUrl}/admin/#/deposits`);
    await page.locator('[data-testid=deposit-queue] tbody tr').first().waitFor();
    await page.getByTestId('deposits-badge').and(page.locator('.MuiBadge-invisible')).waitFor({ state: 'attached' });
    await page.goto(`${app.baseUrl}/admin/#/`);
    await page.getByTestId('deposit-pending').waitFor();
    await page.waitForTimeout(6_000); // the watcher's first answer is its baseline
    // Read after the dashboard's own fetch on opening (the first paint may be the cached figures).
    const before = Number(await page.getByTestId('deposit-pending').innerText());
    await deposit(77, 'Dikkat Müşterisi');
    const badge = page.getByRole('menuitem', { name: /Yatırımlar/ }).getByTestId('deposits-badge');
    await page.getByText('1 yatırım bakılmayı bekliyor').waitFor({ timeout: 15_000 });
    expect(await badge.innerText()).toBe('1');
    // The dashboard refreshes with the news, well before its own 30 s poll.
    await page
      .getByTestId('deposit-pending')
      .getByText(String(before + 1), { exact: true })
      .waitFor({ timeout: 5_000 });
    await screenshot(page, 'usability-attention-tr');
    await page.getByRole('menuitem', { name: /Yatırımlar/ }).click();
    await page.getByTestId('deposits-badge').and(page.locator('.MuiBadge-invisible')).waitFor({ state: 'attached' });
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
