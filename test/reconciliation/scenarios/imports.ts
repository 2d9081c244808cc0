import type { ReconciliationFixture } from '../reconciliation-fixture.js';
import { camt, garantiCsv, mt940 } from '../statement-files.js';

/** Statement files imported, assessed, deduplicated and, where allowed, approved automatically. */
export function registerImports(fixture: () => ReconciliationFixture): void {
  it('imports a camt.053 file: every line an event, credits assessed with candidates, nothing approved while automatic approval is off', async () => {
    const { deps, upload, queue, stateOf, eventCount, first } = fixture();
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
    const { app, lines, upload, first } = fixture();
    const again = await upload(camt(first()), 'format=camt053');
    expect(again.body).toMatchObject({ linesInFile: 8, linesNew: 0, linesAlreadyImported: 8 });
    const csv = await upload(garantiCsv([lines.exact!, lines.less!]), 'format=csv&preset=garanti-bbva');
    expect(csv.status).toBe(201);
    expect(csv.body).toMatchObject({ linesInFile: 2, linesNew: 0, linesAlreadyImported: 2 });
    const { rows } = await app.db.query<{ n: string }>('select count(*)::text as n from rm_statement_lines');
    expect(rows[0]!.n).toBe('8');
  });

  it('with automatic approval on for the infrastructure, a strong match approves through the operator command', async () => {
    const { engine, app, client, admin, auditor, deps, lines, upload, lineByRef, stateOf } = fixture();
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
}
