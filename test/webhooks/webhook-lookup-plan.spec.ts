import { randomUUID } from 'node:crypto';
import { TRANSACTIONS_BY_IDS_SQL } from '@transfergate/webhook-ingest';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function scansOf(node: PlanNode): string[] {
  const own = node['Relation Name'] ? [`${node['Node Type']} on ${node['Relation Name']}`] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scansOf)];
}

/**
 * A webhook finds its transaction by index probes, however many transactions there are: the
 * lookup by external id used to read every row of rm_transactions (it had no index to use).
 */
describe('webhook transaction lookup (PostgreSQL)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp('postgres');
    // 200,000 transactions of five infrastructures, as statistics see them.
    await app.db.exec(`insert into rm_transactions (transaction_id, number, type, state, merchant_id, provider_id,
        infrastructure_id, form, external_id, amount_kurus, original_amount_kurus, customer, version, created_at, updated_at)
      select gen_random_uuid(), 1000000 + g, 'deposit', 'approved', 'm', 'p' || (g % 5), 'i' || (g % 5), 'h2h',
        'ext-' || g, 100, 100, '{}', 1, now(), now()
      from generate_series(1, 200000) g`);
    await app.db.exec('analyze rm_transactions');
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
  });

  it.each([
    ['a number and an id', ['1000011'], [randomUUID()]],
    ['ids only (an external id, as the ids it derives)', [], [randomUUID(), randomUUID(), randomUUID()]],
    ['a number only', ['1000012'], []],
  ])('%s: index scans of rm_transactions, no sequential scan', async (_name, numbers, ids) => {
    const { rows } = await app.db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `explain (format json) ${TRANSACTIONS_BY_IDS_SQL}`,
      ['i1', JSON.stringify(numbers), JSON.stringify(ids)],
    );
    const scans = scansOf(rows[0]!['QUERY PLAN'][0]!.Plan).filter((scan) => scan.endsWith(' on rm_transactions'));
    expect(scans.length).toBeGreaterThan(0);
    expect(scans.filter((scan) => scan.startsWith('Seq Scan'))).toEqual([]);
  });

  it('finds by number and by id, within the infrastructure only', async () => {
    const { rows: some } = await app.db.query<{ id: string }>(
      `select transaction_id::text id from rm_transactions where number = 1000011`,
    );
    const id = some[0]!.id;
    const lookup = (infrastructureId: string, numbers: string[], ids: string[]) =>
      app.db.query<{ transactionId: string; externalId: string }>(TRANSACTIONS_BY_IDS_SQL, [
        infrastructureId,
        JSON.stringify(numbers),
        JSON.stringify(ids),
      ]);
    expect((await lookup('i1', ['1000011'], [])).rows).toMatchObject([{ transactionId: id, externalId: 'ext-11' }]);
    expect((await lookup('i1', [], [id])).rows).toMatchObject([{ transactionId: id, externalId: 'ext-11' }]);
    expect((await lookup('i2', ['1000011'], [id])).rows).toEqual([]);
  });
});
