import {
  ConfigureOperatorCommand,
  ExpireTransactionCommand,
  RECONCILIATION_CSV_COLUMNS,
} from '@transfergate/contracts';
import { replayLedger } from '@transfergate/ledger';
import { checkMatchInvariants } from '../../services/ledger/src/reconciliation/read-model/match-invariants.js';
import { h2hBody, VALID_IBAN } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { ENGINES, issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { camt, garantiCsv, mt940, type SyntheticLine } from './statement-files.js';

/**
 * Reconciliation over real HTTP on both engines: deposits from the gateway, bank statements uploaded
 * as raw files, the queue with candidates and reasons, operator decisions (approve, at the received
 * amount, after expiry, dismiss), automatic approval when the infrastructure allows it, repeated
 * and overlapping imports, races on one line, bad input, and the replay rebuilding it all.
 */
const KEY = { apiKey: 'ak_test_1', apiSecret: 'sk_test_1' };
const DAY = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
const nowTime = () => new Date(Date.now() + 3 * 3_600_000).toISOString().slice(11, 16);

interface Deposit {
  uuid: string;
  number: number;
}

describe.each(ENGINES)('reconciliation (%s)', (engine) => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let auditor: string;
  let accountId: string;
  let n = 0;
  const deps = {} as Record<'exact' | 'less' | 'third' | 'named' | 'late' | 'auto', Deposit>;
  const lines = {} as Record<
    'exact' | 'less' | 'third' | 'named' | 'unknown' | 'fee' | 'twice' | 'late' | 'auto',
    SyntheticLine
  >;

  async function deposit(amount: number, fullname = 'Ayşe Yılmaz'): Promise<Deposit> {
    const id = `R-${engine}-${++n}`;
    const res = await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEY, id, amount, { fullname }));
    expect(res.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${id}`,
      {},
      { 'x-api-key': KEY.apiKey, 'x-api-secret': KEY.apiSecret },
    );
    return { uuid: String(status.body.uuid), number: Number(status.body.id) };
  }
  async function upload(content: string | Buffer, query: string, token = admin, requestId?: string) {
    const res = await fetch(`${app.baseUrl}/panel/reconciliation/accounts/${accountId}/statements?${query}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        authorization: `Bearer ${token}`,
        ...(requestId ? { 'x-request-id': requestId } : {}),
      },
      body: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  async function queue(extra = '') {
    const res = await client.get(
      `/panel/reconciliation/lines?bankAccountId=${accountId}&direction=credit&limit=200${extra}`,
      admin,
    );
    expect(res.status).toBe(200);
    return res.body.items as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  async function lineByRef(ref: string) {
    const all = await client.get(`/panel/reconciliation/lines?bankAccountId=${accountId}&limit=200`, admin);
    const found = all.body.items.find((l: { bankReference?: string }) => l.bankReference === ref);
    expect(found).toBeDefined();
    return found;
  }
  async function stateOf(d: Deposit) {
    const { rows } = await app.db.query<{ state: string; amount: string; original: string }>(
      `select state, amount_kurus::text as amount, original_amount_kurus::text as original from rm_transactions where transaction_id = $1`,
      [d.uuid],
    );
    return rows[0]!;
  }
  const eventCount = async () =>
    Number((await app.db.query<{ n: string }>('select count(*)::text as n from es_events')).rows[0]!.n);

  beforeAll(async () => {
    app = await startTestApp(engine);
    await app.provision(issueBootstrap());
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: 'audit', password: 'Initial-pass-1', role: 'auditor', active: true },
        { source: 'test' },
      ),
    );
    await app.settle();
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    auditor = (await client.login('audit', 'Initial-pass-1')).accessToken;
    const accounts = await client.get('/panel/bank-accounts', admin);
    accountId = (accounts.body.items ?? accounts.body)[0].id;

    deps.exact = await deposit(150);
    deps.less = await deposit(200);
    deps.third = await deposit(300);
    deps.named = await deposit(777.77, 'Mehmet Ali Kaya');
    deps.late = await deposit(400);
    deps.auto = await deposit(99.99, 'Zeynep Çelik');
    await app.commands.execute(
      new ExpireTransactionCommand({ transactionId: deps.late.uuid, now: new Date(Date.now() + 31 * 60_000) }),
    );
    const t = nowTime();
    Object.assign(lines, {
      exact: {
        ref: 'B1',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 15000n,
        description: `Ödeme Tğ-${deps.exact.number} teşekkürler`,
        name: 'YILMAZ AYŞE',
      },
      less: {
        ref: 'B2',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 19999n,
        description: `t g ${deps.less.number}`,
        name: 'Ayşe Yılmaz',
      },
      third: {
        ref: 'B3',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 30000n,
        description: `TG${deps.third.number}`,
        name: 'Hasan Demir',
      },
      named: {
        ref: 'B4',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 77777n,
        description: 'havale',
        name: 'kaya mehmet ali',
      },
      unknown: {
        ref: 'B5',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 123456n,
        description: 'EFT',
        name: 'Bilinmeyen Kişi',
      },
      fee: { ref: 'B6', day: DAY, time: t, direction: 'debit', amountKurus: 550n, description: 'EFT masrafı' },
      twice: {
        ref: 'B7',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 15000n,
        description: `TG ${deps.exact.number}`,
        name: 'Ayşe Yılmaz',
      },
      late: {
        ref: 'B8',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 40000n,
        description: `tg-${deps.late.number}`,
        name: 'Ayşe Yılmaz',
      },
      auto: {
        ref: 'B9',
        day: DAY,
        time: t,
        direction: 'credit',
        amountKurus: 9999n,
        description: `TG-${deps.auto.number}`,
        name: 'ZEYNEP ÇELİK',
      },
    } satisfies Record<string, SyntheticLine>);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  const first = () =>
    (['exact', 'less', 'third', 'named', 'unknown', 'fee', 'twice', 'late'] as const).map((k) => lines[k]);

  it('imports a camt.053 file: every line an event, credits assessed with candidates, nothing approved while automatic approval is off', async () => {
    const before = await eventCount();
    const res = await upload(camt(first()), 'format=camt053&fileName=day.xml');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      linesInFile: 8,
      linesNew: 8,
      linesAlreadyImported: 0,
      credits: 7,
      debits: 1,
      autoMatched: 0,
      strongWaiting: 2,
      queued: 7,
    });
    // The import, 8 lines and 8 assessments.
    expect((await eventCount()) - before).toBe(17);
    const items = await queue('&state=queued');
    expect(items).toHaveLength(7);
    const by = (ref: string) => items.find((l) => l.bankReference === ref)!;
    expect(by('B1').candidates[0]).toMatchObject({ number: deps.exact.number, strong: true, differences: [] });
    expect(by('B1').candidates[0].reasons).toEqual(
      expect.arrayContaining([
        `reference TG-${deps.exact.number} in the description`,
        'amount equal',
        'sender name matches',
      ]),
    );
    expect(by('B2').differences).toEqual(['paid_less']);
    expect(by('B3').differences).toEqual(['third_party']);
    expect(by('B4').candidates[0]).toMatchObject({ number: deps.named.number, strong: true });
    expect(by('B5').differences).toEqual(['unknown_credit']);
    expect(by('B5').candidates).toEqual([]);
    expect(by('B7').differences).toEqual(['paid_twice']);
    expect(by('B8').differences).toEqual(['paid_after_expiry']);
    for (const d of [deps.exact, deps.named]) expect((await stateOf(d)).state).toBe('awaiting_payment');
  });

  it('the same file again, and an overlapping CSV of the same day, create no line twice', async () => {
    const again = await upload(camt(first()), 'format=camt053');
    expect(again.body).toMatchObject({ linesInFile: 8, linesNew: 0, linesAlreadyImported: 8 });
    const csv = await upload(garantiCsv([lines.exact!, lines.less!]), 'format=csv&preset=garanti-bbva');
    expect(csv.status).toBe(201);
    expect(csv.body).toMatchObject({ linesInFile: 2, linesNew: 0, linesAlreadyImported: 2 });
    const { rows } = await app.db.query<{ n: string }>('select count(*)::text as n from rm_statement_lines');
    expect(rows[0]!.n).toBe('8');
  });

  it('with automatic approval on for the infrastructure, a strong match approves through the operator command', async () => {
    const settings = await client.get('/panel/reconciliation/settings', admin);
    const infrastructureId = settings.body[0].infrastructureId;
    expect(settings.body[0].autoApprove).toBe(false);
    expect(
      (await client.post('/panel/reconciliation/settings', { infrastructureId, autoApprove: true }, auditor)).status,
    ).toBe(403);
    expect(
      (await client.post('/panel/reconciliation/settings', { infrastructureId, autoApprove: true }, admin)).status,
    ).toBe(201);
    const importRequestId = `recon-import-${engine}`;
    const res = await upload(mt940([lines.auto!]), 'format=mt940', admin, importRequestId);
    expect(res.body).toMatchObject({ linesNew: 1, autoMatched: 1, queued: 0 });
    expect(await stateOf(deps.auto)).toMatchObject({ state: 'approved', amount: '9999' });
    expect(await lineByRef('B9')).toMatchObject({
      state: 'matched',
      mode: 'auto',
      decision: 'approve',
      number: deps.auto.number,
      decidedBy: 'reconciliation',
    });
    // The automatic approval carries the request id of the import that decided it.
    const approvals = await app.db.query<{ request_id: string | null }>(
      `select metadata->>'requestId' as request_id from es_events
        where stream_id = $1 and type = 'TransactionApproved' and metadata->>'source' = 'reconciliation'`,
      [`txn-${deps.auto.uuid}`],
    );
    expect(approvals.rows).toEqual([{ request_id: importRequestId }]);
    await client.post('/panel/reconciliation/settings', { infrastructureId, autoApprove: false }, admin);
    // The queue size and the automatic match rate, as /metrics serves them.
    const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
    expect(metrics).toContain('transfergate_statement_credit_lines{state="matched",mode="auto"} 1');
    expect(metrics).toContain('transfergate_statement_credit_lines{state="queued",mode="none"} 7');
  });

  it('operator decisions: approve, paid twice refused then dismissed, received amount, late payment', async () => {
    const b1 = await lineByRef('B1');
    const matched = await client.post(
      `/panel/reconciliation/lines/${b1.lineId}/match`,
      { transactionId: deps.exact.uuid },
      admin,
    );
    expect(matched.status).toBe(201);
    expect(matched.body).toMatchObject({
      state: 'matched',
      mode: 'operator',
      decision: 'approve',
      transactionId: deps.exact.uuid,
    });
    expect((await stateOf(deps.exact)).state).toBe('approved');

    const b7 = await lineByRef('B7');
    const twice = await client.post(
      `/panel/reconciliation/lines/${b7.lineId}/match`,
      { transactionId: deps.exact.uuid },
      admin,
    );
    expect(twice.status).toBe(409);
    expect(twice.body.errorCode).toBe('line_decided');
    const dismissed = await client.post(
      `/panel/reconciliation/lines/${b7.lineId}/dismiss`,
      { reason: 'paid twice, refunded to sender' },
      admin,
    );
    expect(dismissed.status).toBe(201);
    expect(dismissed.body).toMatchObject({
      state: 'dismissed',
      reason: 'paid twice, refunded to sender',
      differences: ['paid_twice'],
    });
    expect(
      (await client.post(`/panel/reconciliation/lines/${b7.lineId}/dismiss`, { reason: 'again' }, admin)).status,
    ).toBe(409);

    const b2 = await lineByRef('B2');
    const received = await client.post(
      `/panel/reconciliation/lines/${b2.lineId}/match`,
      { transactionId: deps.less.uuid, amount: 'received' },
      admin,
    );
    expect(received.status).toBe(201);
    expect(received.body).toMatchObject({ decision: 'approve_received', differences: ['paid_less'] });
    // The requested amount stays in the history; the approval (and so the callback) carries the received one.
    expect(await stateOf(deps.less)).toMatchObject({ state: 'approved', amount: '19999', original: '20000' });
    const approved = await app.db.query<{ amount: string }>(
      `select data->>'amountKurus' as amount from es_events where stream_id = $1 and type = 'TransactionApproved'`,
      [`txn-${deps.less.uuid}`],
    );
    expect(approved.rows).toEqual([{ amount: '19999' }]);

    const b8 = await lineByRef('B8');
    const late = await client.post(
      `/panel/reconciliation/lines/${b8.lineId}/match`,
      { transactionId: deps.late.uuid },
      admin,
    );
    expect(late.status).toBe(201);
    expect(late.body.differences).toEqual(['paid_after_expiry']);
    expect((await stateOf(deps.late)).state).toBe('approved');
  });

  it('ten parallel matches of one line: one approval, one match, the rest refused', async () => {
    const b4 = await lineByRef('B4');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.post(`/panel/reconciliation/lines/${b4.lineId}/match`, { transactionId: deps.named.uuid }, admin),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const approvals = await app.db.query<{ n: string }>(
      `select count(*)::text as n from es_events where stream_id = $1 and type = 'TransactionApproved'`,
      [`txn-${deps.named.uuid}`],
    );
    expect(approvals.rows[0]!.n).toBe('1');
    expect(await checkMatchInvariants(app.db)).toEqual([]);
  });

  it("the account's summary (statement beside issued and approved) and its CSV report", async () => {
    const range = `from=${DAY}&to=${DAY}`;
    const summary = await client.get(`/panel/reconciliation/accounts/${accountId}/summary?${range}`, admin);
    expect(summary.status).toBe(200);
    // Credits: 150 + 199.99 + 300 + 777.77 + 1234.56 + 150 + 400 (first file) + 99.99 (MT940).
    expect(summary.body.statement).toMatchObject({ creditsKurus: '331231', debitsKurus: '550', creditLines: 8 });
    expect(summary.body.statement.closingBalanceKurus).toBeDefined();
    // Matched: 150 (B1), 199.99 (B2), 777.77 (B4), 400 (B8), 99.99 (B9); dismissed: 150 (B7).
    expect(summary.body).toMatchObject({
      matchedKurus: '162775',
      dismissedKurus: '15000',
      unmatchedKurus: String(30000 + 123456),
      unmatchedLines: 2,
    });
    expect(summary.body.deposits).toMatchObject({ issued: 6, approved: 5, approvedWithoutLine: 0 });
    const csv = await fetch(`${app.baseUrl}/panel/reconciliation/accounts/${accountId}/report.csv?${range}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="reconciliation-/);
    const rows = (await csv.text()).trimEnd().split('\r\n');
    expect(rows[0]).toBe(RECONCILIATION_CSV_COLUMNS.join(';'));
    expect(rows).toHaveLength(10);
    expect(rows.find((r) => r.includes(';B7;'))).toMatch(/;dismissed;paid_twice;;;;paid twice, refunded to sender;/);
    expect(rows.find((r) => r.includes(';B2;'))).toMatch(
      new RegExp(`;199\\.99;.*;matched;paid_less;TG-${deps.less.number};approve_received;operator;`),
    );
    expect((await client.get(`/panel/reconciliation/accounts/${accountId}/summary?from=${DAY}`, admin)).status).toBe(
      400,
    );
    expect(
      (await client.get(`/panel/reconciliation/accounts/${accountId}/summary?from=2026-12-01&to=2026-11-01`, admin))
        .status,
    ).toBe(400);
  });

  it('a bulk payment file of approved withdrawals, per beneficiary bank, in a configurable layout', async () => {
    const id = `RWD-${engine}`;
    const requested = await postJson(`${app.baseUrl}/withdrawal/bank`, h2hBody(KEY, id, 100.5, { iban: VALID_IBAN }));
    expect(requested.status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${id}`,
      {},
      { 'x-api-key': KEY.apiKey, 'x-api-secret': KEY.apiSecret },
    );
    const file = (query: string) =>
      fetch(`${app.baseUrl}/panel/reconciliation/withdrawals/payment-file.csv?from=${DAY}&to=${DAY}${query}`, {
        headers: { authorization: `Bearer ${admin}` },
      });
    // Not approved yet: not in the file.
    expect(await (await file('')).text()).toBe('IBAN;Alıcı Adı Soyadı;Tutar;Açıklama\r\n');
    expect((await client.post('/panel/withdrawal/approve', { id: status.body.uuid }, admin)).status).toBe(201);
    const plain = await file('');
    expect(plain.headers.get('content-disposition')).toMatch(/attachment; filename="payments-/);
    expect(await plain.text()).toBe(
      `IBAN;Alıcı Adı Soyadı;Tutar;Açıklama\r\n${VALID_IBAN};Ayşe Yılmaz;100,50;TG-${status.body.id} ${id}\r\n`,
    );
    const layout = encodeURIComponent(
      JSON.stringify({
        delimiter: ',',
        decimalMark: '.',
        header: false,
        columns: [
          { title: 'x', field: 'amount' },
          { title: 'y', field: 'iban' },
        ],
      }),
    );
    expect(await (await file(`&bankCode=00061&layout=${layout}`)).text()).toBe(`100.50,${VALID_IBAN}\r\n`);
    expect(await (await file(`&bankCode=00062&layout=${layout}`)).text()).toBe('');
    expect((await file('&bankCode=62')).status).toBe(400);
    expect((await file('&layout=%7B%22columns%22%3A%5B%5D%7D')).status).toBe(400);
    // The statement's debit line that pays it out (TG-<number> from the file, the beneficiary's IBAN) links by itself.
    const payout: SyntheticLine = {
      ref: 'D1',
      day: DAY,
      time: nowTime(),
      direction: 'debit',
      amountKurus: 10050n,
      description: `TG-${status.body.id} ${id}`,
      name: 'Ayşe Yılmaz',
      iban: VALID_IBAN,
    };
    const other: SyntheticLine = {
      ...payout,
      ref: 'D2',
      amountKurus: 10050n,
      description: 'EFT',
      iban: 'TR120006200000000000000001',
    };
    const imported = await upload(camt([payout, other]), 'format=camt053');
    expect(imported.body).toMatchObject({ linesNew: 2, debits: 2, debitsLinked: 1 });
    expect(await lineByRef('D1')).toMatchObject({
      state: 'matched',
      decision: 'link',
      mode: 'auto',
      number: status.body.id,
    });
    expect(await lineByRef('D2')).toMatchObject({ state: 'queued', candidates: [] });
    expect(await checkMatchInvariants(app.db)).toEqual([]);
    const auditorFile = await fetch(
      `${app.baseUrl}/panel/reconciliation/withdrawals/payment-file.csv?from=${DAY}&to=${DAY}`,
      {
        headers: { authorization: `Bearer ${auditor}` },
      },
    );
    expect(auditorFile.status).toBe(403);
  });

  it('bad input: clear 4xx, stable codes, nothing written', async () => {
    const before = await eventCount();
    const broken = await upload(
      garantiCsv([lines.exact!]).replace('150,00', '150,0x'),
      'format=csv&preset=garanti-bbva',
    );
    expect(broken.status).toBe(422);
    expect(broken.body.errorCode).toBe('statement_refused');
    expect(broken.body.details.problems[0]).toMatchObject({ at: 'row 5' });
    const wrongAccount = await upload(
      camt(first()).replace('TR330006100519786457841326', 'TR000006100519786457841399'),
      'format=camt053',
    );
    expect(wrongAccount.status).toBe(422);
    expect(wrongAccount.body.message).toMatch(/not for this account/);
    expect((await upload(camt(first()), 'format=pdf')).status).toBe(400);
    expect((await upload(camt(first()), 'format=csv&preset=nope')).status).toBe(400);
    expect((await upload(camt(first()), 'format=csv&mapping=%7B')).status).toBe(400);
    expect((await upload('', 'format=camt053')).status).toBe(400);
    expect((await upload(camt(first()), 'format=camt053', auditor)).status).toBe(403);
    const missing = await fetch(
      `${app.baseUrl}/panel/reconciliation/accounts/00000000-0000-4000-8000-000000000000/statements?format=camt053`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${admin}` },
        body: camt(first()),
      },
    );
    expect(missing.status).toBe(404);
    expect(
      (await client.post('/panel/reconciliation/lines/not-a-uuid/match', { transactionId: deps.third.uuid }, admin))
        .status,
    ).toBe(404);
    const b3 = await lineByRef('B3');
    expect(
      (await client.post(`/panel/reconciliation/lines/${b3.lineId}/match`, { transactionId: 'x' }, admin)).status,
    ).toBe(400);
    expect((await client.post(`/panel/reconciliation/lines/${b3.lineId}/dismiss`, { reason: '' }, admin)).status).toBe(
      400,
    );
    expect(
      (await client.post(`/panel/reconciliation/lines/${b3.lineId}/dismiss`, { reason: 'x' }, auditor)).status,
    ).toBe(403);
    expect((await client.get('/panel/reconciliation/lines')).status).toBe(401);
    expect(await eventCount()).toBe(before);
  });

  it('corrupt and hostile bank files: 422 statement_refused naming what is wrong, nothing written, never a 500', async () => {
    const before = await eventCount();
    const fresh: SyntheticLine = { ...lines.unknown, ref: 'H1', description: 'EFT H1' };
    const good = camt([fresh], 'camt053', { openingKurus: 5000n });
    // A closing balance 0.01 TRY higher than opening + credits − debits.
    const unbalanced = await upload(good.replace('>1284.56</Amt>', '>1284.57</Amt>'), 'format=camt053');
    expect(unbalanced.status).toBe(422);
    expect(unbalanced.body.errorCode).toBe('statement_refused');
    expect(unbalanced.body.message).toMatch(/a difference of 0\.01 TRY, 1 kuruş/);
    expect(unbalanced.body.details.problems).toEqual([
      { at: 'balances', differenceKurus: '1', message: expect.stringContaining('opening 50.00 TRY') },
    ]);
    const noClosing = mt940([fresh]).replace(/:62F:[^\r\n]*\r\n/, '');
    const mt = await upload(noClosing, 'format=mt940');
    expect(mt.status).toBe(422);
    expect(mt.body.details.problems).toEqual([
      { at: 'file', message: 'the mandatory tag :62F:/:62M: (closing balance) is missing' },
    ]);
    const doctype = (decl: string, use = '') =>
      good
        .replace('<?xml version="1.0" encoding="UTF-8"?>', `<?xml version="1.0" encoding="UTF-8"?>\n${decl}`)
        .replace('EFT H1', `EFT H1${use}`);
    for (const hostile of [
      doctype('<!DOCTYPE Document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>', '&xxe;'),
      doctype('<!DOCTYPE Document [<!ENTITY % p SYSTEM "http://127.0.0.1:9/p.dtd"> %p;]>'),
      doctype('<!DOCTYPE Document [<!ENTITY a "x"><!ENTITY lol9 "&a;&a;&a;">]>', '&lol9;'),
      good.replace('<RmtInf>', `<RmtInf>${'<a>'.repeat(50_000)}${'</a>'.repeat(50_000)}`),
    ]) {
      const res = await upload(hostile, 'format=camt053');
      expect(res.status).toBe(422);
      expect(res.body.errorCode).toBe('statement_refused');
    }
    expect(await eventCount()).toBe(before);
    // A 2 MB remittance text: imported cut to Ustrd's 140 characters, with a warning in the report.
    const huge = `EFT H2 ${'x'.repeat(2 * 1024 * 1024)}`;
    const cut = await upload(camt([{ ...fresh, ref: 'H2', description: huge }]), 'format=camt053');
    expect(cut.status).toBe(201);
    expect(cut.body.warnings).toEqual([{ at: 'entry 1', message: `Ustrd of ${huge.length} characters cut to 140` }]);
    const stored = await lineByRef('H2');
    expect(stored.description).toBe(huge.slice(0, 140));
    await client.post(`/panel/reconciliation/lines/${stored.lineId}/dismiss`, { reason: 'test line' }, admin);
  });

  it('the replay rebuilds the reconciliation tables identical and checks the matches; a second match is named', async () => {
    const report = await replayLedger({ db: app.db });
    expect(report.invariants).toEqual([]);
    if (report.comparison.skipped) throw new Error('comparison skipped');
    expect(report.comparison.differences).toEqual([]);
    expect(report.comparison.tablesCompared).toEqual(
      expect.arrayContaining([
        'rm_statement_lines',
        'rm_statement_line_status',
        'rm_statement_imports',
        'rm_reconciliation_settings',
      ]),
    );
    expect(report.ok).toBe(true);
    // By hand: the dismissed double payment marked as matched to the same deposit.
    const b7 = await lineByRef('B7');
    await app.db.query(
      `update rm_statement_line_status set state = 'matched', transaction_id = $2 where line_id = $1`,
      [b7.lineId, deps.exact.uuid],
    );
    const violations = await checkMatchInvariants(app.db);
    expect(violations).toEqual([
      expect.objectContaining({ invariant: 'deposit_matched_once', subject: `txn:${deps.exact.uuid}` }),
    ]);
    const damaged = await replayLedger({ db: app.db });
    if (damaged.comparison.skipped) throw new Error('comparison skipped');
    expect(damaged.comparison.differences.map((d) => [d.table, d.column])).toEqual(
      expect.arrayContaining([['rm_statement_line_status', 'state']]),
    );
  });
});
