import { RECONCILIATION_CSV_COLUMNS } from '@transfergate/contracts';
import { checkMatchInvariants } from '../../../services/ledger/src/reconciliation/read-model/match-invariants.js';
import { h2hBody, VALID_IBAN } from '../../gateway/conformance-fixture.js';
import { postJson } from '../../support/test-app.js';
import { DAY, KEY, nowTime, type ReconciliationFixture } from '../reconciliation-fixture.js';
import { camt, type SyntheticLine } from '../statement-files.js';

/** The account's summary and CSV report, and the bulk payment file of approved withdrawals. */
export function registerReports(fixture: () => ReconciliationFixture): void {
  it("the account's summary (statement beside issued and approved) and its CSV report", async () => {
    const { app, client, admin, accountId, deps } = fixture();
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
    const { engine, app, client, admin, auditor, upload, lineByRef } = fixture();
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
}
