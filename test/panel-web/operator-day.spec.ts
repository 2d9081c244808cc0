import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ConfigureOperatorCommand, ExpireTransactionCommand, ReportPaymentCommand } from '@transfergate/contracts';
import { KEYS, VALID_IBAN, conformanceBootstrap, h2hBody } from '../gateway/conformance-fixture.js';
import { issueBootstrap, postJson, type TestApp } from '../support/test-app.js';
import { panelClient } from '../panel/panel-client.js';
import { launchBrowser, loginInBrowser, newPanelContext, screenshot, startPanelWebApp } from './browser.js';

const tryText = (lira: number) =>
  new Intl.NumberFormat('tr-TR', { style: 'currency', currency: 'TRY', minimumFractionDigits: 2 }).format(lira);
/** Reads until `check` holds (the UI polls and re-renders); fails with the last value read. */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// DOM globals inside page.evaluate (the test's own tsconfig has no DOM lib).
interface DomBox {
  scrollWidth: number;
  clientWidth: number;
  closest(selector: string): DomBox | null;
  parentElement: DomBox;
  querySelectorAll(selector: string): Iterable<{ getBoundingClientRect(): { height: number } }>;
}
type Dom = {
  document: {
    querySelector(s: string): DomBox;
    documentElement: { scrollWidth: number };
  };
  navigator: { clipboard: { readText(): Promise<string> } };
};

const grouped = (iban: string) => iban.replace(/(.{4})/g, '$1 ').trim();

/**
 * The operator's working day in the panel, in headless Chromium with the Turkish UI against a
 * real app on PostgreSQL: search as operators copy from the bank, nothing urgent buried, what the
 * approve dialog makes them check, Turkish everywhere (errors, races, detail page), the attention
 * signal, bulk work (CSV, bulk decisions with per-item results, preset reasons, the operator
 * picker, statements) and a withdrawal queue that fits 1440 px.
 */
describe('the operator day in the Turkish panel (PostgreSQL, Chromium)', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let clerk: string;
  const run = Date.now();
  let n = 0;

  async function deposit(amount: number | string, fullname: string) {
    const externalId = `day-${++n}-${run}`;
    const created = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEYS.h2h, externalId, amount, { fullname }));
    expect(created.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
    );
    return { uuid: String(status.body.uuid), number: Number(status.body.id), externalId };
  }

  async function withdrawal(amount: number, fullname: string) {
    const externalId = `day-w-${++n}-${run}`;
    const created = await postJson(
      `${app.baseUrl}/withdrawal/bank`,
      h2hBody(KEYS.h2h, externalId, amount, { iban: VALID_IBAN, fullname }),
    );
    expect(created.status).toBe(201);
    return { number: Number(created.body.id), externalId };
  }

  const queueRows = (type: 'deposit' | 'withdrawal') => page.locator(`[data-testid="${type}-queue"] tbody tr`);
  const rowTexts = async (type: 'deposit' | 'withdrawal') =>
    (await queueRows(type).allTextContents()).map((text) => text.replace(/\s+/g, ' '));

  /** Waits until the queue shows exactly the rows whose text contains each of `expected`, in order. */
  async function expectRows(type: 'deposit' | 'withdrawal', expected: string[]) {
    await until(
      () => rowTexts(type),
      (texts) => texts.length === expected.length && expected.every((part, index) => texts[index]!.includes(part)),
    );
  }

  beforeAll(async () => {
    app = await startPanelWebApp('postgres');
    await app.provision(conformanceBootstrap());
    await app.provision(issueBootstrap());
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: 'clerk', password: 'Clerk-pass-123', role: 'operator', active: true },
        { source: 'test' },
      ),
    );
    await app.settle();
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    clerk = (await client.login('clerk', 'Clerk-pass-123')).accessToken;
    browser = await launchBrowser();
    context = await newPanelContext(browser, 'tr');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') console.log(`browser console: ${message.text()}`);
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('sign-in errors are Turkish sentences', async () => {
    await page.goto(`${app.baseUrl}/admin/#/login`);
    await page.locator('#username').fill('admin');
    await page.locator('#password').fill('wrong-password');
    await page.locator('button[type=submit]').click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toBe('Giriş başarısız: Kullanıcı adı veya parola hatalı.');
    await loginInBrowser(page, app, { username: 'admin', password: 'S3cure-pass!' });
  }, 60_000);

  it('search finds amounts in Turkish spellings, names without Turkish letters, TG references and IBANs', async () => {
    const ozturk = await deposit(45000, 'Mehmet Öztürk');
    const isik = await deposit('1250.50', 'Işık Çelik');
    await app.settle();
    await page.goto(`${app.baseUrl}/admin/#/deposits`);
    await expectRows('deposit', [isik.externalId, ozturk.externalId]);
    const search = page.getByLabel('Ara');
    for (const text of ['45.000', '45000,00', '45000', 'ozturk', `TG-${ozturk.number}`]) {
      await search.fill(text);
      await expectRows('deposit', [ozturk.externalId]);
    }
    const detail = (await client.get(`/panel/transactions/${ozturk.uuid}`, admin)).body;
    await search.fill(grouped(String(detail.bankAccount.iban)));
    await until(
      () => rowTexts('deposit'),
      (texts) => texts.some((t) => t.includes(ozturk.externalId)),
    );
    await search.fill('isik celik');
    await expectRows('deposit', [isik.externalId]);
    await search.fill('');
    await page.getByLabel('En az tutar').fill('1.000');
    await page.getByLabel('En çok tutar').fill('2.000,00');
    await expectRows('deposit', [isik.externalId]);
    await screenshot(page, 'day-search-amount-range');
    await page.getByLabel('En az tutar').fill('');
    await page.getByLabel('En çok tutar').fill('');
    await expectRows('deposit', [isik.externalId, ozturk.externalId]);
  }, 90_000);

  it('nothing urgent is buried: reported first, expired still listed, time left, sortable amount', async () => {
    const late = await deposit(500, 'Geç Kalan');
    const reported = await deposit(700, 'Bildiren Müşteri');
    await app.commands.execute(
      new ExpireTransactionCommand({ transactionId: late.uuid, now: new Date(Date.now() + 86_400_000) }),
    );
    await app.commands.execute(
      new ReportPaymentCommand({ transactionId: reported.uuid, actor: { source: 'customer' } }),
    );
    await app.settle();
    await page.goto(`${app.baseUrl}/admin/#/deposits`);
    await until(
      () => rowTexts('deposit'),
      (texts) => texts.length === 4,
    );
    const texts = await rowTexts('deposit');
    expect(texts[0]).toContain(reported.externalId);
    expect(texts[0]).toContain('Ödeme bildirildi');
    expect(texts[3]).toContain(late.externalId);
    expect(texts[3]).toContain('Süresi doldu');
    expect(texts[3]).toMatch(/önce doldu/);
    expect(texts[1]).toMatch(/\d+ dk kaldı/);
    await screenshot(page, 'day-urgent-first');
    // Sort by amount: a click on the column header, ascending then descending.
    const amounts = async () =>
      (await rowTexts('deposit')).map((t) => /₺\s?(\d{1,3}(?:\.\d{3})*,\d{2})/.exec(t)?.[1] ?? '?');
    await page.getByRole('columnheader', { name: 'Tutar' }).getByRole('button').click();
    await until(amounts, (list) => list.join('|') === '500,00|700,00|1.250,50|45.000,00');
    await page.getByRole('columnheader', { name: 'Tutar' }).getByRole('button').click();
    await until(amounts, (list) => list.join('|') === '45.000,00|1.250,50|700,00|500,00');
    await page.getByRole('columnheader', { name: 'Durum' }).getByRole('button').click();
  }, 90_000);

  it('the approve dialog shows the receiving account and reference; a decision by another operator closes it', async () => {
    const target = await deposit(320, 'Yarış Müşterisi');
    const detail = (await client.get(`/panel/transactions/${target.uuid}`, admin)).body;
    await page.goto(`${app.baseUrl}/admin/#/deposits`);
    const row = page.locator('tr', { hasText: target.externalId });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('button', { name: 'Onayla' }).click();
    const dialog = page.getByRole('dialog');
    const checks = dialog.getByTestId('approve-checks');
    await checks.waitFor();
    const text = (await checks.textContent()) ?? '';
    expect(text).toContain(String(detail.bankAccount.bank));
    expect(text).toContain(grouped(String(detail.bankAccount.iban)));
    expect(text).toContain('Transfer Ltd');
    expect(text).toContain(`TG-${target.number}`);
    expect(text).toContain(tryText(320));
    await screenshot(page, 'day-approve-deposit-checks');

    // Another operator approves it first; this operator's confirmation then says who did.
    const other = await client.post('/panel/deposit/approve', { id: target.uuid }, clerk);
    expect(other.status).toBe(201);
    await dialog.getByRole('button', { name: 'Onayla' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    const notice = page.getByText(`#${target.number} zaten clerk tarafından`);
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toMatch(/onaylandı\. Sizin işleminiz uygulanmadı\./);
    await screenshot(page, 'day-race-notice');

    // The detail page names events, sources and forms in Turkish, and the fee is the 2 % withheld.
    await page.goto(`${app.baseUrl}/admin/#/deposits/${target.uuid}/show`);
    const history = page.getByTestId('event-history');
    await history.locator('[data-event-type="TransactionApproved"]').waitFor();
    const historyText = (await history.textContent()) ?? '';
    expect(historyText).toContain('Yatırım talebi oluştu');
    expect(historyText).toContain('Onaylandı');
    expect(historyText).toContain('clerk');
    expect(historyText).not.toMatch(/DepositRequested|TransactionApproved/);
    const facts = (await page.getByRole('table', { name: `İşlem #${target.number}` }).textContent()) ?? '';
    expect(facts).toContain(`Ücret${tryText(6.4)}`);
    expect(facts).toContain(`TG-${target.number}`);
    expect(facts).toContain('API biçimiH2H');
    expect(facts).toContain('DurumOnaylandı');
    expect(facts).not.toMatch(/awaiting_payment|approved\b|deposit\b/);
    // The history's visible cells (the folded raw event data aside) are Turkish too.
    const cells = await history.locator('tbody tr td:nth-child(-n+4)').allTextContents();
    expect(cells.join(' ')).not.toMatch(/[A-Z][a-z]+[A-Z][a-z]+|gateway|panel\b/);
    await screenshot(page, 'day-detail-tr');
  }, 90_000);

  it('a withdrawal approve dialog groups the payout IBAN with a copy button and names the holder', async () => {
    const payout = await withdrawal(250, 'Gül Şahin');
    await page.goto(`${app.baseUrl}/admin/#/withdrawals`);
    const row = page.locator('tr', { hasText: payout.externalId });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('button', { name: 'Onayla' }).click();
    const checks = page.getByRole('dialog').getByTestId('approve-checks');
    await checks.waitFor();
    await expect(checks.getByTestId('iban').textContent()).resolves.toBe(grouped(VALID_IBAN));
    await expect(checks.textContent()).resolves.toContain('Gül Şahin');
    await checks.getByRole('button', { name: 'IBAN’ı kopyala' }).click();
    await page.getByText('IBAN kopyalandı').waitFor();
    await expect(page.evaluate(() => (globalThis as unknown as Dom).navigator.clipboard.readText())).resolves.toBe(
      VALID_IBAN,
    );
    await screenshot(page, 'day-approve-withdrawal-checks');
    await page.keyboard.press('Escape');
  }, 60_000);

  it('withdrawal rows stay on one line at 1440 px and the merchants list fits', async () => {
    await withdrawal(1234.56, 'Uzun İsimli Müşteri Adı Soyadı');
    await withdrawal(98765.43, 'Bir Başka Uzun İsimli Müşteri');
    await page.goto(`${app.baseUrl}/admin/#/withdrawals`);
    await until(
      () => rowTexts('withdrawal'),
      (texts) => texts.length >= 2,
    );
    const layout = await page.evaluate(() => {
      const { document } = globalThis as unknown as Dom;
      const table = document.querySelector('[data-testid="withdrawal-queue"]');
      const scroller = table.closest('.RaDatagrid-tableWrapper') ?? table.parentElement;
      const rows = [...table.querySelectorAll('tbody tr')].map((tr) => tr.getBoundingClientRect().height);
      return {
        rows,
        scrollWidth: scroller.scrollWidth,
        clientWidth: scroller.clientWidth,
        page: document.documentElement.scrollWidth,
      };
    });
    await screenshot(page, 'day-withdrawal-queue-1440');
    expect(layout.page).toBeLessThanOrEqual(1440);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
    for (const height of layout.rows) expect(height).toBeLessThan(60); // one line of text plus padding
    await page.goto(`${app.baseUrl}/admin/#/merchants`);
    await page.locator('tbody tr').first().waitFor();
    await expect(
      page.evaluate(() => (globalThis as unknown as Dom).document.documentElement.scrollWidth),
    ).resolves.toBeLessThanOrEqual(1440);
    await screenshot(page, 'day-merchants-1440');
  }, 60_000);

  it('a new deposit is announced in the title and the tab icon until the queue is seen', async () => {
    await page.goto(`${app.baseUrl}/admin/#/`);
    await page.getByTestId('dashboard').waitFor();
    await page.waitForTimeout(6_000); // the watcher's first answer is its baseline
    await deposit(99, 'Yeni Müşteri');
    await until(
      () => page.title(),
      (title) => /^\(1\) /.test(title),
    );
    await expect(page.locator('link[rel="icon"]').getAttribute('href')).resolves.toMatch(/^data:image\/png;base64,/);
    await expect(page.getByTestId('attention-count').textContent()).resolves.toBe('1 yeni ya da bildirilen yatırım');
    await page.getByRole('menuitem', { name: 'Yatırımlar' }).click();
    await until(
      () => page.title(),
      (title) => !/^\(\d+\) /.test(title),
    );
    await expect(page.locator('link[rel="icon"]').count()).resolves.toBe(0);
  }, 60_000);

  it('bulk: one confirmation, each item decided alone, per-item results; preset reasons; CSV export', async () => {
    const first = await withdrawal(110, 'Toplu Bir');
    const second = await withdrawal(120, 'Toplu İki');
    const taken = await withdrawal(130, 'Toplu Üç');
    await page.goto(`${app.baseUrl}/admin/#/withdrawals`);
    for (const item of [first, second, taken]) {
      await page.locator('tr', { hasText: item.externalId }).waitFor({ timeout: 15_000 });
      await page.locator('tr', { hasText: item.externalId }).locator('input[type=checkbox]').check();
    }
    // Someone else rejects one of them meanwhile.
    expect((await client.post('/panel/withdrawal/reject', { id: taken.number, reason: 'elle' }, clerk)).status).toBe(
      201,
    );
    await page.getByRole('button', { name: 'Seçilenleri reddet' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('bulk-summary').textContent()).resolves.toContain(tryText(360));
    await dialog.getByRole('button', { name: 'Mükerrer talep' }).click();
    await expect(dialog.getByLabel('Red nedeni').inputValue()).resolves.toBe('Mükerrer talep');
    await dialog.getByRole('button', { name: 'Reddet' }).click();
    const results = page.getByTestId('bulk-results');
    await results.waitFor({ timeout: 15_000 });
    await expect(results.locator('[data-ok="true"]').count()).resolves.toBe(2);
    await expect(results.locator('[data-ok="false"]').textContent()).resolves.toContain(
      `#${taken.number} zaten clerk tarafından`,
    );
    await screenshot(page, 'day-bulk-results');
    await page.getByRole('button', { name: 'Kapat' }).click();
    for (const item of [first, second]) {
      const view = (await client.get(`/panel/transactions/${item.number}`, admin)).body;
      expect(view).toMatchObject({ state: 'rejected', reason: 'Mükerrer talep' });
    }

    // CSV of the current list (all states): Turkish headers, `;`, amounts as 110,00.
    await page.getByRole('combobox', { name: 'Durum' }).click();
    await page.getByRole('option', { name: 'Reddedildi' }).click();
    await page.locator('tr', { hasText: first.externalId }).waitFor({ timeout: 15_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV indir' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.startsWith('\uFEFFNo;')).toBe(true);
    expect(csv).toContain(`${first.number};;Reddedildi;110,00;`);
    expect(csv).toContain('Mükerrer talep');
  }, 90_000);

  it('the assign dialog picks from the operators', async () => {
    const item = await withdrawal(140, 'Atanacak Müşteri');
    await page.goto(`${app.baseUrl}/admin/#/withdrawals`);
    await page.getByRole('combobox', { name: 'Durum' }).click();
    await page.getByRole('option', { name: 'Yalnızca açık olanlar' }).click();
    const row = page.locator('tr', { hasText: item.externalId });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('button', { name: 'Ata' }).click();
    const dialog = page.getByRole('dialog');
    const input = dialog.getByLabel('Operatör kullanıcı adı');
    await input.fill('');
    await input.click();
    await page.getByRole('option', { name: 'clerk' }).click();
    await dialog.getByRole('button', { name: 'Ata' }).click();
    await page.getByText(`İşlem #${item.number} atandı`).waitFor();
    await row.getByRole('cell', { name: 'clerk', exact: true }).waitFor({ timeout: 15_000 });
  }, 60_000);

  it('the statement screen shows a merchant statement', async () => {
    await page.getByRole('menuitem', { name: 'Ekstreler' }).click();
    await page.getByTestId('statement-page').waitFor();
    await page.getByLabel('Bayi').click();
    await page.getByRole('option', { name: 'Conformance' }).click();
    await page.getByRole('button', { name: 'Göster' }).click();
    await page.getByTestId('statement-entries').waitFor();
    await expect(page.getByTestId('statement-closing').textContent()).resolves.toMatch(/^Kapanış bakiyesi: /);
    await screenshot(page, 'day-statement');
  }, 60_000);

  it('the audit log reads as sentences: sign-ins, failed sign-ins, decisions and amount changes by number', async () => {
    const changed = await deposit(410, 'Tutar Değişen');
    expect(
      (await client.post('/panel/deposit/update-amount', { id: changed.number, amount: 415.25 }, admin)).status,
    ).toBe(201);
    await app.settle();
    await page.getByRole('menuitem', { name: 'Denetim kayıtları' }).click();
    const sentences = page.locator('[data-type]');
    await sentences.first().waitFor({ timeout: 15_000 });
    const all = async () => (await sentences.allTextContents()).join('\n');
    await until(all, (text) => text.includes(`admin, #${changed.number} numaralı işlemin tutarını değiştirdi`));
    const text = await all();
    expect(text).toContain(
      `admin, #${changed.number} numaralı işlemin tutarını değiştirdi: ${tryText(410)} → ${tryText(415.25)}`,
    );
    expect(text).toContain('“admin” adıyla başarısız giriş denemesi');
    expect(text).toContain('admin giriş yaptı');
    expect(text).not.toContain('#?');
    expect(text).toMatch(/clerk, #\d+ numaralı işlemi onayladı/);
    expect(text).toMatch(/admin, #\d+ numaralı işlemi reddetti: Mükerrer talep/);
    // No event type names, stream names or internal ids in the Turkish log.
    const table = (await page.locator('table').first().locator('tbody td').allTextContents()).join(' | ');
    expect(table).not.toMatch(/[A-Z][a-z]+[A-Z][a-z]+|txn-|operator-|signin-/);
    await screenshot(page, 'day-audit-sentences');
  }, 60_000);
});
