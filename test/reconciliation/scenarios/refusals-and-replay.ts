import { replayLedger } from '@transfergate/ledger';
import { checkMatchInvariants } from '../../../services/ledger/src/reconciliation/read-model/match-invariants.js';
import type { ReconciliationFixture } from '../reconciliation-fixture.js';
import { camt, garantiCsv, mt940, type SyntheticLine } from '../statement-files.js';

/** Bad input and hostile files refused with nothing written; the replay rebuilds and checks it all. */
export function registerRefusalsAndReplay(fixture: () => ReconciliationFixture): void {
  it('bad input: clear 4xx, stable codes, nothing written', async () => {
    const { app, client, admin, auditor, deps, lines, upload, lineByRef, eventCount, first } = fixture();
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
    const { client, admin, lines, upload, lineByRef, eventCount } = fixture();
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
    const { app, deps, lineByRef } = fixture();
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
}
