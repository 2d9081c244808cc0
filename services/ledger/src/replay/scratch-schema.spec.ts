import { openPostgres, type SqlDatabase, type SqlExecutor } from '@transfergate/event-store';
import { TEST_DATABASE_URL } from '../../../../test/support/postgres.js';
import { ScratchSchema } from './scratch-schema.js';

/** A database whose transactions fail at the first statement that names `table`. */
function failingAt(db: SqlDatabase, table: string): SqlDatabase {
  const failing = Object.create(db) as SqlDatabase;
  failing.transaction = (work) =>
    db.transaction((tx) => {
      const wrapped: SqlExecutor = Object.create(tx) as SqlExecutor;
      wrapped.query = ((sql: string, params?: unknown[]) =>
        sql.includes(table)
          ? Promise.reject(new Error(`refused: ${table}`))
          : tx.query(sql, params)) as SqlExecutor['query'];
      return work(wrapped);
    });
  return failing;
}

describe('the replay scratch schema (PostgreSQL)', () => {
  let db: SqlDatabase;
  const scratchSchemas = async () =>
    (
      await db.query<{ name: string }>(`select nspname as name from pg_namespace where nspname like $1`, [
        `tg\\_replay\\_${process.pid}\\_%`,
      ])
    ).rows.map((r) => r.name);

  beforeAll(async () => {
    db = await openPostgres({ url: TEST_DATABASE_URL, poolSize: 2 });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('is dropped again when its tables cannot be made (nothing is left behind to name)', async () => {
    const before = await scratchSchemas();
    await expect(ScratchSchema.create(failingAt(db, 'rm_transfers'))).rejects.toThrow('refused: rm_transfers');
    expect(await scratchSchemas()).toEqual(before);
  });

  it('holds the read models when it can, and drop removes it', async () => {
    const scratch = await ScratchSchema.create(db);
    expect(await scratchSchemas()).toContain(scratch.name);
    await scratch.drop();
    expect(await scratchSchemas()).not.toContain(scratch.name);
  });
});
