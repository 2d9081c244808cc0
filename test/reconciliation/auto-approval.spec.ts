import { checkMatchInvariants } from '../../services/ledger/src/reconciliation/read-model/match-invariants.js';
import { h2hBody } from '../gateway/conformance-fixture.js';
import { panelClient } from '../panel/panel-client.js';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { camt, type SyntheticLine } from './statement-files.js';

const KEY = { apiKey: 'ak_test_1', apiSecret: 'sk_test_1' };
const DAY = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
const DEPOSITS = 60;

/**
 * Automatic approval of a whole statement at once, on PostgreSQL over real HTTP: the import's
 * strong matches are approved side by side (their appends group-committed), while an operator
 * approves some of the same deposits by hand through the panel at the same moment. Every approval
 * is of the deposit the line really pays, no deposit is approved twice, every line ends matched
 * once, and the approvals shared transactions rather than taking one commit each.
 */
describe('automatic approval of a statement, side by side with an operator (PostgreSQL)', () => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  let admin: string;
  let accountId: string;

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap());
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
    const accounts = await client.get('/panel/bank-accounts', admin);
    accountId = (accounts.body.items ?? accounts.body)[0].id;
    const settings = await client.get('/panel/reconciliation/settings', admin);
    const infrastructureId = settings.body[0].infrastructureId;
    expect(
      (await client.post('/panel/reconciliation/settings', { infrastructureId, autoApprove: true }, admin)).status,
    ).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  async function deposit(i: number) {
    const id = `AUTO-${i}-${Date.now()}`;
    const fullname = `Müşteri ${i} Yılmaz`;
    const amount = 100 + i;
    expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hBody(KEY, id, amount, { fullname }))).status).toBe(201);
    const status = await postJson(
      `${app.baseUrl}/status/${id}`,
      {},
      { 'x-api-key': KEY.apiKey, 'x-api-secret': KEY.apiSecret },
    );
    return { uuid: String(status.body.uuid), number: Number(status.body.id), amount, fullname };
  }

  it('every approval is the right deposit, none twice, though an operator approves at the same moment', async () => {
    const deposits = [];
    for (let i = 0; i < DEPOSITS; i++) deposits.push(await deposit(i));
    const time = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(11, 16);
    const lines: SyntheticLine[] = deposits.map((d, i) => ({
      ref: `AA${i}`,
      day: DAY,
      time,
      direction: 'credit',
      amountKurus: BigInt(d.amount) * 100n,
      description: `TG-${d.number} yatırım`,
      name: d.fullname,
    }));
    // Lines paying nothing known, between them: they stay queued.
    lines.push(
      { ref: 'AAX1', day: DAY, time, direction: 'credit', amountKurus: 77_700n, description: 'kira', name: 'Kimse' },
      { ref: 'AAX2', day: DAY, time, direction: 'debit', amountKurus: 550n, description: 'EFT masrafı' },
    );
    const operatorApproves = deposits.filter((_, i) => i % 3 === 0);
    const upload = fetch(`${app.baseUrl}/panel/reconciliation/accounts/${accountId}/statements?format=camt053`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${admin}` },
      body: camt(lines),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    // The operator's approvals in parallel with the import's own, each a real request: fired all at
    // once as soon as the import's lines are in (its automatic approvals start right then).
    const byHand = (async () => {
      for (let waited = 0; waited < 60_000; waited += 2) {
        const { rows } = await app.db.query<{ n: number }>('select count(*)::int as n from rm_statement_lines');
        if (rows[0]!.n >= lines.length) break;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      // Spread over the import's approvals, from both ends of the file: some come first, some after.
      return Promise.all(
        operatorApproves.map((d, k) =>
          new Promise((resolve) => setTimeout(resolve, (k % 2 === 0 ? k : operatorApproves.length - k) * 8)).then(() =>
            client.post('/panel/deposit/approve', { id: d.uuid }, admin),
          ),
        ),
      );
    })();
    const [imported, manual] = await Promise.all([upload, byHand]);
    expect(imported.status).toBe(201);
    // An operator's approval either went first (201) or found the deposit approved by the import (422).
    for (const res of manual) expect([201, 422]).toContain(res.status);
    const report = imported.body as { autoMatched: number; autoFailures: unknown[]; queued: number };
    expect(report.autoFailures).toEqual([]);
    expect(report.autoMatched).toBe(DEPOSITS);
    expect(report.queued).toBe(1);
    await app.settle();

    // No deposit approved twice, every one approved once.
    const { rows: approvals } = await app.db.query<{ stream_id: string; n: number; xids: number }>(
      `select stream_id, count(*)::int as n from es_events where type = 'TransactionApproved'
        and stream_id = any($1::text[]) group by stream_id`,
      [deposits.map((d) => `txn-${d.uuid}`)],
    );
    expect(approvals).toHaveLength(DEPOSITS);
    expect(approvals.filter((a) => a.n !== 1)).toEqual([]);
    // Every line matched to the deposit it really pays, once; an approved-by-hand deposit linked.
    const { rows: matched } = await app.db.query<{ ref: string; txn: string; decision: string; events: number }>(
      `select l.record->>'bankReference' as ref, s.transaction_id::text as txn, s.record->>'decision' as decision,
              (select count(*)::int from es_events e where e.type = 'StatementLineMatched'
                 and e.data->>'lineId' = s.line_id::text) as events
         from rm_statement_line_status s join rm_statement_lines l on l.line_id = s.line_id
        where s.state = 'matched'`,
    );
    expect(matched).toHaveLength(DEPOSITS);
    const truth = new Map(deposits.map((d, i) => [`AA${i}`, d.uuid]));
    for (const m of matched) {
      expect({ ref: m.ref, txn: m.txn, events: m.events }).toEqual({ ref: m.ref, txn: truth.get(m.ref), events: 1 });
    }
    const autoApproved = await app.db.query<{ id: string }>(
      `select stream_id as id from es_events where type = 'TransactionApproved' and metadata->>'source' = 'reconciliation'`,
    );
    const linked = matched.filter((m) => m.decision === 'link').length;
    expect(autoApproved.rows.length + linked).toBe(DEPOSITS);
    expect(await checkMatchInvariants(app.db)).toEqual([]);

    // The import's approvals were written together: far fewer commits than approvals.
    const { rows: commits } = await app.db.query<{ approvals: number; commits: number }>(
      `select count(*)::int as approvals, count(distinct xid)::int as commits from es_events
        where type = 'TransactionApproved' and metadata->>'source' = 'reconciliation'`,
    );
    expect(commits[0]!.approvals).toBeGreaterThan(DEPOSITS / 2);
    expect(commits[0]!.commits).toBeLessThanOrEqual(commits[0]!.approvals / 3);
    const { rows: decisions } = await app.db.query<{ events: number; commits: number }>(
      `select count(*)::int as events, count(distinct xid)::int as commits from es_events
        where type = 'StatementLineMatched' and metadata->>'source' = 'reconciliation'`,
    );
    expect(decisions[0]!.commits).toBeLessThanOrEqual(decisions[0]!.events / 3);
  }, 180_000);
});
