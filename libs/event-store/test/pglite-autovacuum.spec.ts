import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_STATISTICS_TARGET, openPglite, type SqlDatabase } from '../src/index.js';
import { MAX_TABLES_PER_ROUND, runAutovacuumRound, startAutovacuum } from '../src/sql/pglite-autovacuum.js';

/**
 * PGlite has no autovacuum launcher: the adapter's rounds must find the tables PostgreSQL's own
 * rules would pick (dead rows over 50 + 20 %, changes since the last analyse over 50 + 10 %), clean
 * them, and leave the rest alone.
 */
describe('PGlite autovacuum', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-autovacuum-'));
  let db: SqlDatabase;

  const stats = async (table: string) => {
    // Counters reach the statistics when a statement ends after this (see runAutovacuumRound).
    await db.query('select pg_stat_force_next_flush()');
    return (
      await db.query<{ dead: number; mods: number }>(
        `select n_dead_tup::int as dead, n_mod_since_analyze::int as mods from pg_stat_user_tables where relname = $1`,
        [table],
      )
    ).rows[0]!;
  };

  beforeAll(async () => {
    db = await openPglite(join(dir, 'pgdata'));
    await db.exec(`create table churned (id int primary key, n int);
      create table steady (id int primary key, n int);
      insert into churned select g, 0 from generate_series(1, 1000) g;
      insert into steady select g, 0 from generate_series(1, 1000) g;`);
    // Both analysed once (after their inserts reached the statistics), so only what happens next decides.
    await db.query('select pg_stat_force_next_flush()');
    await db.exec('vacuum (analyze) churned');
    await db.exec('vacuum (analyze) steady');
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('vacuums a table whose dead rows passed the threshold, and only that one', async () => {
    for (let i = 0; i < 3; i++) await db.query('update churned set n = n + 1');
    await db.query('update steady set n = n + 1 where id <= 10'); // 10 dead rows: under 50 + 20 %
    // Page pruning during the updates may already have reclaimed a few.
    expect((await stats('churned')).dead).toBeGreaterThan(2_000);

    const round = await runAutovacuumRound(db);
    expect(round.statements).toEqual(['vacuum (analyze) public.churned']);
    expect(await stats('churned')).toEqual({ dead: 0, mods: 0 });
    expect((await stats('steady')).dead).toBe(10);
    expect((await runAutovacuumRound(db)).statements).toEqual([]);
  });

  it('analyses a table whose rows changed by inserts alone, without vacuuming it', async () => {
    await db.query('insert into steady select g, 0 from generate_series(1001, 1200) g');
    expect((await runAutovacuumRound(db)).statements).toEqual(['analyze public.steady']);
    expect((await stats('steady')).mods).toBe(0);
  });

  it(`takes at most ${MAX_TABLES_PER_ROUND} tables a round, the rest in the next`, async () => {
    const tables = Array.from({ length: MAX_TABLES_PER_ROUND + 2 }, (_, i) => `many_${i}`);
    for (const table of tables) {
      await db.exec(`create table ${table} (id int primary key); insert into ${table} select generate_series(1, 100)`);
    }
    const first = await runAutovacuumRound(db);
    const second = await runAutovacuumRound(db);
    expect(first.statements).toHaveLength(MAX_TABLES_PER_ROUND);
    expect([...first.statements, ...second.statements].sort()).toEqual(
      tables.map((table) => `analyze public.${table}`).sort(),
    );
  });

  it(`analyses from a sample for a statistics target of ${EMBEDDED_STATISTICS_TARGET}, so a round holds the one connection briefly`, async () => {
    // 20,000 distinct values: at the server's default target (100) the histogram has 101 bounds.
    await db.exec(`create table sampled (id int primary key, n int);
      insert into sampled select g, g from generate_series(1, 20000) g;`);
    expect((await runAutovacuumRound(db)).statements).toContain('analyze public.sampled');
    const { rows } = await db.query<{ target: string; bounds: number; mcv: number | null }>(
      `select current_setting('default_statistics_target') as target,
              array_length(histogram_bounds::text::int[], 1) as bounds,
              array_length(most_common_vals::text::int[], 1) as mcv
       from pg_stats where tablename = 'sampled' and attname = 'n'`,
    );
    expect(rows).toEqual([
      { target: String(EMBEDDED_STATISTICS_TARGET), bounds: EMBEDDED_STATISTICS_TARGET + 1, mcv: null },
    ]);
  });

  it('runs rounds on a timer and stops cleanly', async () => {
    await db.query('update churned set n = n + 1');
    const errors: unknown[] = [];
    const running = startAutovacuum(db, { intervalMs: 20, onError: (error) => errors.push(error) });
    const deadline = Date.now() + 10_000;
    while ((await stats('churned')).dead > 0) {
      if (Date.now() > deadline) throw new Error('no round cleaned the table within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await running.stop();
    expect(errors).toEqual([]);
  });
});
