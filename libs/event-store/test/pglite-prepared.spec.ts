import { PGlite } from '@electric-sql/pglite';
import { openPglite, sqlState, UNIQUE_VIOLATION, type SqlDatabase } from '../src/index.js';
import { PglitePreparedStatements } from '../src/sql/pglite-prepared.js';

/**
 * The PGlite adapter runs every statement as a named prepared statement: it must answer exactly
 * what PGlite's own query() answers (values, types, NULLs, errors), survive a table changing under
 * a statement, and keep at most its limit of statements.
 */
describe('PGlite prepared statements', () => {
  let pg: PGlite;
  let prepared: PglitePreparedStatements;
  const run = <Row>(sql: string, params?: unknown[]) => pg._runExclusiveQuery(() => prepared.run<Row>(sql, params));

  beforeAll(async () => {
    pg = await PGlite.create();
    prepared = new PglitePreparedStatements(pg, 4);
    await pg.exec(`create table t (id int primary key, big bigint, doc jsonb, at timestamptz, label text, ok boolean,
      amount numeric, raw bytea, u uuid)`);
  });
  afterAll(async () => {
    await pg.close();
  });

  it('answers the same rows as query(), every type and NULL alike, on first and repeated runs', async () => {
    const insert = `insert into t values ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9) returning *`;
    const rows = [
      [
        1,
        '9007199254740993',
        JSON.stringify({ a: [1, 'x'], b: null }),
        '2026-11-21T07:01:16.123456Z',
        "it's",
        true,
        '12.50',
        new Uint8Array([0xde, 0xad, 0xbe, 0xef]),
        '0d6c2f8e-51e6-4a3e-9a43-3f0bb4c2a9f1',
      ],
      [2, null, null, null, null, null, null, null, null],
      [3, 42n, '{"k": "ğüşiöç"}', new Date('2026-01-01T00:00:00Z'), '', false, 0, null, null],
    ];
    for (const params of rows) await run(insert, params);
    const select = 'select * from t where id = any($1::int[]) order by id';
    const expected = (await pg.query(select, [[1, 2, 3]])).rows;
    for (let i = 0; i < 8; i++) expect(await run(select, [[1, 2, 3]])).toEqual(expected);
    expect(await run('select count(*)::int as n from t where label is null')).toEqual([{ n: 1 }]);
    expect(await run('update t set ok = true where id = 99')).toEqual([]);
  });

  it('rejects with the SQL state, and the statement runs again afterwards', async () => {
    const insert = 'insert into t (id) values ($1)';
    await run(insert, [10]);
    const error = await run(insert, [10]).catch((e: unknown) => e);
    expect(sqlState(error)).toBe(UNIQUE_VIOLATION);
    await run(insert, [11]);
    expect(await run<{ n: number }>('select count(*)::int as n from t where id in (10, 11)')).toEqual([{ n: 2 }]);
  });

  it('reads rows from the reply bytes themselves: long values over several chunks, empty and non-ASCII text', async () => {
    // About 100 KB per row of two-byte characters: PGlite writes the reply out in several pieces.
    const select = `select n, repeat('ğ', 50000) || $1::text as long, '' as empty, null::text as none, 'İ\t\\' as odd
      from generate_series(1, 4) as n order by n`;
    const expected = (await pg.query(select, ['ş'])).rows;
    const rows = await run<{ long: string }>(select, ['ş']);
    expect(rows).toEqual(expected);
    expect(rows[3]!.long.length).toBe(50_001);
  });

  it('a reply with a notice in it is read by the parser of PGlite, same rows', async () => {
    await pg.exec(`create or replace function noisy(n int) returns int language plpgsql as $$
      begin raise notice 'noisy %', n; return n * 2; end $$`);
    const select = 'select noisy(n) as doubled from generate_series(1, $1::int) as n order by n';
    expect(await run(select, [3])).toEqual([{ doubled: 2 }, { doubled: 4 }, { doubled: 6 }]);
  });

  it('an error carries the fields that query() of PGlite gives it', async () => {
    const insert = 'insert into t (id) values ($1)';
    await run(insert, [20]);
    const ours = (await run(insert, [20]).catch((e: unknown) => e)) as Record<string, unknown>;
    const theirs = (await pg.query(insert, [20]).catch((e: unknown) => e)) as Record<string, unknown>;
    expect(ours).toBeInstanceOf(Error);
    for (const field of ['message', 'code', 'detail', 'constraint', 'table', 'schema', 'severity']) {
      expect([field, ours[field]]).toEqual([field, theirs[field]]);
    }
  });

  it('prepares again once a table under a statement changed shape', async () => {
    const select = 'select * from t where id = $1';
    expect(Object.keys((await run<Record<string, unknown>>(select, [1]))[0]!)).not.toContain('extra');
    await pg.exec('alter table t add column extra text');
    // PostgreSQL refuses the cached plan once ("cached plan must not change result type") ...
    const first = await run(select, [1]).catch((e: unknown) => e);
    expect(sqlState(first)).toBe('0A000');
    // ... and the next run is prepared afresh with the new column.
    expect(Object.keys((await run<Record<string, unknown>>(select, [1]))[0]!)).toContain('extra');
  });

  it('keeps at most its limit of statements, least recently used out first', async () => {
    for (let i = 0; i < 10; i++) expect(await run(`select ${i}::int as n`)).toEqual([{ n: i }]);
    expect(prepared.size).toBe(4);
    const { rows } = await pg.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements`);
    expect(rows[0]!.n).toBe(4);
  });
});

describe('PGlite cached plans follow the tables as they grow', () => {
  it('a plan made on an empty table is made again once the table has more than doubled', async () => {
    const pg = await PGlite.create({ postgresqlconf: ['plan_cache_mode=force_generic_plan'] });
    try {
      const prepared = new PglitePreparedStatements(pg, 16, 4);
      const run = (sql: string, params: unknown[] = []) => pg._runExclusiveQuery(() => prepared.run(sql, params, true));
      await pg.exec('create table g (id int primary key, v text)');
      const select = 'select count(*)::int as n from g where v <> $1';
      expect(await run(select, ['x'])).toEqual([{ n: 0 }]);
      const { rows } = await pg.query<{ name: string }>(
        'select name from pg_prepared_statements where statement = $1',
        [select],
      );
      const name = rows[0]!.name;
      // The cached plan's row estimate is the table's size when it was planned.
      const estimate = async () => {
        const plan = await pg.query<{ 'QUERY PLAN': string }>(`explain execute ${name}('x')`);
        return Number(/Seq Scan on g .*rows=(\d+)/.exec(plan.rows.map((r) => r['QUERY PLAN']).join('\n'))![1]);
      };
      const before = await estimate();
      await pg.query(`insert into g select i, repeat('v', 100) from generate_series(1, 20000) i`);
      expect(await estimate()).toBe(before); // nothing told PostgreSQL to plan again
      for (let i = 0; i < 4; i++) await run(select, ['x']); // a check is due every 4 runs
      expect(prepared.freshness.discards).toBe(1);
      expect(await run(select, ['x'])).toEqual([{ n: 20000 }]);
      expect(await estimate()).toBeGreaterThan(before * 10);
      // Not grown again: no further discard.
      for (let i = 0; i < 8; i++) await run(select, ['x']);
      expect(prepared.freshness.discards).toBe(1);
    } finally {
      await pg.close();
    }
  });
});

describe('PGlite adapter on prepared statements', () => {
  let db: SqlDatabase;
  beforeAll(async () => {
    db = await openPglite();
    await db.exec('create table k (id int primary key, v text)');
  });
  afterAll(async () => {
    await db.close();
  });

  it('a failed statement rolls its transaction back and leaves the connection usable', async () => {
    const error = await db
      .transaction(async (tx) => {
        await tx.query('insert into k values ($1, $2)', [1, 'a']);
        await tx.query('insert into k values ($1, $2)', [1, 'b']);
      })
      .catch((e: unknown) => e);
    expect(sqlState(error)).toBe(UNIQUE_VIOLATION);
    expect((await db.query('select count(*)::int as n from k')).rows).toEqual([{ n: 0 }]);
    await db.transaction(async (tx) => {
      await tx.query('insert into k values ($1, $2)', [1, 'c']);
    });
    expect((await db.query('select v from k where id = $1', [1])).rows).toEqual([{ v: 'c' }]);
  });

  it('statements outside a transaction wait for one in progress', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = db.transaction(async (t) => {
      await t.query('update k set v = $1 where id = 1', ['in tx']);
      await held;
    });
    const outside = db.query<{ v: string }>('select v from k where id = 1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await tx;
    expect((await outside).rows).toEqual([{ v: 'in tx' }]);
  });
});
