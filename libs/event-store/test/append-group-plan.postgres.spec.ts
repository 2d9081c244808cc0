import { randomUUID } from 'node:crypto';
import { PostgresEventStore, type SqlDatabase } from '../src/index.js';
import { GROUP_APPEND_ONE_EVENT_SQL } from '../src/store/group-append-sql.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const scansOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(scansOf)];

/**
 * The group's statement must find each stream's head by its key, whatever the table's size. As a
 * plain join the planner guessed 100 payload rows and hashed all of es_streams (one row per
 * transaction ever made), so every group read the whole table: 2,300 streams already took that
 * plan. The statement is captured as the store sends it and explained on a table of 5,000 streams.
 */
describe('append group statement plan on PostgreSQL', () => {
  let db: SqlDatabase & { schema: string };
  const grouped: { sql: string; params: readonly unknown[] }[] = [];

  beforeAll(async () => {
    db = await openTestPostgres('groupplan');
  });
  afterAll(async () => {
    await db.close();
  });

  it('probes es_streams by key instead of scanning it', async () => {
    // The group's statement runs inside es_append_group_one_event (one call per group): its payload
    // is captured from the call and the function's statement explained with it.
    const recording: SqlDatabase = {
      ...db,
      query: (sql, params) => {
        if (params !== undefined && sql.includes('es_append_group_one_event(')) grouped.push({ sql, params });
        return db.query(sql, params);
      },
    };
    const store = await PostgresEventStore.create(recording, { maxGroupsInFlight: 1, maxWritesPerGroup: 128 });
    const event = () => ({ eventId: randomUUID(), type: 'Planned', schemaVersion: 1, data: { n: 1 } });
    for (let batch = 0; batch < 50; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, () => store.append(`plan-${randomUUID()}`, [event()], 'no_stream')),
      );
    }
    await db.query('analyze es_streams');
    expect(Number((await db.query<{ n: string }>('select count(*)::text as n from es_streams')).rows[0]!.n)).toBe(
      5_000,
    );
    expect(grouped.length).toBeGreaterThan(0);

    const { params } = grouped[grouped.length - 1]!;
    const sql = GROUP_APPEND_ONE_EVENT_SQL;
    const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (format json) ${sql}`, [
      params[0],
    ]);
    const nodes = scansOf(rows[0]!['QUERY PLAN'][0].Plan);
    const streamScans = nodes.filter(
      (node) => node['Relation Name'] === 'es_streams' && node['Node Type'] !== 'ModifyTable',
    );
    expect(streamScans.length).toBeGreaterThan(0);
    expect(streamScans.map((node) => node['Node Type'])).not.toContain('Seq Scan');

    // PL/pgSQL caches the function's plans, so after a few runs the server may keep one generic plan.
    const generic = await db.transaction(async (tx) => {
      const payload = `'${String(params[0]).replace(/'/g, "''")}'`;
      await tx.query(`prepare group_plan_probe(text) as ${sql}`);
      await tx.query('set local plan_cache_mode = force_generic_plan');
      const plan = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (format json) execute group_plan_probe(${payload})`,
      );
      await tx.query('deallocate group_plan_probe');
      return scansOf(plan.rows[0]!['QUERY PLAN'][0].Plan);
    });
    const genericStreamScans = generic.filter(
      (node) => node['Relation Name'] === 'es_streams' && node['Node Type'] !== 'ModifyTable',
    );
    expect(genericStreamScans.length).toBeGreaterThan(0);
    expect(genericStreamScans.map((node) => node['Node Type'])).not.toContain('Seq Scan');
  });
});
