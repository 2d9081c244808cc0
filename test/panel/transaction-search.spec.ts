import { ExpireTransactionCommand, ReportPaymentCommand } from '@transfergate/contracts';
import { KEYS, VALID_IBAN, conformanceBootstrap, h2hBody } from '../gateway/conformance-fixture.js';
import { ENGINES, issueBootstrap, postJson, startTestApp, type Engine, type TestApp } from '../support/test-app.js';
import { panelClient } from './panel-client.js';

/**
 * The list's search finds what operators copy from the bank (an amount
 * in any Turkish spelling, an IBAN with or without spaces, the TG reference, names without Turkish
 * letters), the amount-range and receiving-account filters, the urgency and amount orders with
 * cursor pages, and (item 8) a deposit's fee is the commission really withheld. Matching is SQL,
 * so it runs on both engines.
 */
describe.each(ENGINES)('panel transaction search and order (%s)', (engine: Engine) => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  const run = Date.now();
  let n = 0;
  const ids: Record<string, { uuid: string; number: number }> = {};

  async function deposit(name: string, amount: number | string, fullname: string) {
    const externalId = `srch-${name}-${++n}-${run}`;
    const created = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEYS.h2h, externalId, amount, { fullname }));
    expect(created.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${externalId}`,
      {},
      { 'x-api-key': KEYS.h2h.apiKey, 'x-api-secret': KEYS.h2h.apiSecret },
    );
    ids[name] = { uuid: String(status.body.uuid), number: Number(status.body.id) };
  }

  async function numbersFor(query: string): Promise<number[]> {
    const res = await client.get(`/panel/transactions?${query}`, admin);
    expect(res.status).toBe(200);
    return (res.body.items as Array<{ number: number }>).map((t) => t.number).sort((a, b) => a - b);
  }

  beforeAll(async () => {
    app = await startTestApp(engine);
    await app.provision(conformanceBootstrap());
    await app.provision(issueBootstrap());
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    await deposit('ozturk', 45000, 'Mehmet Öztürk');
    await deposit('isik', '1250.50', 'Işık Çelik');
    await deposit('late', 45000, 'Zeynep Kaya');
    await deposit('reported', 300, 'Ali Veli');
    const withdrawal = await postJson(
      `${app.baseUrl}/withdrawal/bank`,
      h2hBody(KEYS.h2h, `srch-wd-${run}`, 700, { iban: VALID_IBAN, fullname: 'Gül Şahin' }),
    );
    expect(withdrawal.status).toBe(201);
    ids.withdrawal = { uuid: '', number: Number(withdrawal.body.id) };
    await app.commands.execute(
      new ExpireTransactionCommand({ transactionId: ids.late!.uuid, now: new Date(Date.now() + 86_400_000) }),
    );
    await app.commands.execute(
      new ReportPaymentCommand({ transactionId: ids.reported!.uuid, actor: { source: 'customer' } }),
    );
    await app.settle();
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('an amount in any Turkish spelling finds exactly the transactions of that amount', async () => {
    const both = [ids.ozturk!.number, ids.late!.number].sort((a, b) => a - b);
    for (const spelling of ['45000', '45.000', '45000,00', '45.000,00', '45 000 TL']) {
      await expect(numbersFor(`type=deposit&q=${encodeURIComponent(spelling)}`)).resolves.toEqual(both);
    }
    await expect(numbersFor(`q=${encodeURIComponent('1.250,50')}`)).resolves.toEqual([ids.isik!.number]);
    await expect(numbersFor(`q=${encodeURIComponent('1250,5')}`)).resolves.toEqual([ids.isik!.number]);
  });

  it('names match without Turkish letters and in any case', async () => {
    await expect(numbersFor('q=ozturk')).resolves.toEqual([ids.ozturk!.number]);
    await expect(numbersFor('q=OZTURK')).resolves.toEqual([ids.ozturk!.number]);
    await expect(numbersFor('q=Öztürk')).resolves.toEqual([ids.ozturk!.number]);
    await expect(numbersFor('q=isik%20celik')).resolves.toEqual([ids.isik!.number]);
    await expect(numbersFor('q=ISIK')).resolves.toEqual([ids.isik!.number]);
    await expect(numbersFor('q=gul%20sahin')).resolves.toEqual([ids.withdrawal!.number]);
    // Wildcards are literal text, not patterns.
    await expect(numbersFor('q=%25')).resolves.toEqual([]);
  });

  it('the TG reference and the receiving IBAN (with or without spaces) find the deposit', async () => {
    await expect(numbersFor(`q=TG-${ids.isik!.number}`)).resolves.toEqual([ids.isik!.number]);
    await expect(numbersFor(`q=tg${ids.isik!.number}`)).resolves.toEqual([ids.isik!.number]);
    const detail = (await client.get(`/panel/transactions/${ids.ozturk!.uuid}`, admin)).body;
    const iban = String(detail.bankAccount.iban);
    const spaced = iban.replace(/(.{4})/g, '$1 ').trim();
    const listed = await client.get(`/panel/transactions?type=deposit&q=${encodeURIComponent(spaced)}`, admin);
    const numbers = (listed.body.items as Array<{ number: number; bankAccount?: { iban: string } }>).map(
      (t) => t.number,
    );
    expect(numbers).toContain(ids.ozturk!.number);
    // The list carries the receiving account, so the approve dialog can show it.
    expect(
      listed.body.items.find((t: { number: number }) => t.number === ids.ozturk!.number).bankAccount,
    ).toMatchObject({ iban, bank: detail.bankAccount.bank, holderName: 'Transfer Ltd' });
    await expect(numbersFor(`q=${iban.slice(-10)}`)).resolves.toContain(ids.ozturk!.number);
    // The withdrawal's destination IBAN, spaced.
    await expect(
      numbersFor(`type=withdrawal&q=${encodeURIComponent(VALID_IBAN.replace(/(.{4})/g, '$1 ').toLowerCase())}`),
    ).resolves.toEqual([ids.withdrawal!.number]);
  });

  it('filters: amount range in Turkish spelling and the receiving account', async () => {
    await expect(
      numbersFor(`type=deposit&amountMin=${encodeURIComponent('1.000')}&amountMax=${encodeURIComponent('1.300,00')}`),
    ).resolves.toEqual([ids.isik!.number]);
    await expect(numbersFor('type=deposit&amountMin=45000')).resolves.toEqual(
      [ids.ozturk!.number, ids.late!.number].sort((a, b) => a - b),
    );
    const detail = (await client.get(`/panel/transactions/${ids.ozturk!.uuid}`, admin)).body;
    const byAccount = await numbersFor(`type=deposit&bankAccountId=${detail.bankAccount.bankAccountId}`);
    expect(byAccount).toContain(ids.ozturk!.number);
    await expect(numbersFor('type=deposit&bankAccountId=no-such-account')).resolves.toEqual([]);
    for (const bad of ['amountMin=abc', 'amountMax=-5', 'amountMin=500&amountMax=100', 'sort=state']) {
      const res = await client.get(`/panel/transactions?${bad}`, admin);
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe('validation_failed');
    }
  });

  it('urgency order: reported first, then waiting, then expired; cursor pages keep the order', async () => {
    const all = await client.get('/panel/transactions?type=deposit&sort=urgency', admin);
    const states = (all.body.items as Array<{ state: string }>).map((t) => t.state);
    expect(states).toEqual(['payment_reported', 'awaiting_payment', 'awaiting_payment', 'expired']);
    // One row per page: the same rows in the same order, each once.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await client.get(
        `/panel/transactions?type=deposit&sort=urgency&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        admin,
      );
      expect(page.status).toBe(200);
      walked.push(...(page.body.items as Array<{ state: string }>).map((t) => t.state));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(walked).toEqual(states);
    // A cursor from another order is refused, not misread.
    const first = await client.get('/panel/transactions?type=deposit&sort=urgency&limit=1', admin);
    const mixed = await client.get(
      `/panel/transactions?type=deposit&sort=amount&cursor=${first.body.nextCursor}`,
      admin,
    );
    expect(mixed.status).toBe(400);
  });

  it('amount order both ways over cursor pages', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const amounts: number[] = [];
      let cursor: string | null = null;
      do {
        const page = await client.get(
          `/panel/transactions?type=deposit&sort=amount&order=${order}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
          admin,
        );
        amounts.push(...(page.body.items as Array<{ amount: number }>).map((t) => t.amount));
        cursor = page.body.nextCursor;
      } while (cursor);
      const sorted = [300, 1250.5, 45000, 45000];
      expect(amounts).toEqual(order === 'asc' ? sorted : [...sorted].reverse());
    }
  });

  it("a deposit's fee is the commission withheld on approval (2 %), 0 before", async () => {
    const before = await client.get(`/panel/transactions/${ids.ozturk!.uuid}`, admin);
    expect(before.body.fee).toBe(0);
    const approved = await client.post('/panel/deposit/approve', { id: ids.ozturk!.uuid }, admin);
    expect(approved.status).toBe(201);
    await app.settle();
    const detail = await client.get(`/panel/transactions/${ids.ozturk!.uuid}`, admin);
    expect(detail.body.fee).toBe(900);
    const listed = await client.get(`/panel/transactions?q=TG-${ids.ozturk!.number}`, admin);
    expect(listed.body.items[0]).toMatchObject({ number: ids.ozturk!.number, amount: 45000, fee: 900 });
  });
});
