import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres, type SqlDatabase } from '@transfergate/event-store';
import { TEST_DATABASE_URL } from '../../../test/support/postgres.js';

/**
 * Services started side by side on an empty database (distributed mode, a fresh Kubernetes rollout)
 * run their `create … if not exists` scripts at the same moment. Without serialisation PostgreSQL's
 * catalog races on them ("duplicate key value violates unique constraint pg_type_typname_nsp_index").
 */
describe('migration scripts on a PostgreSQL server', () => {
  const schema = `t_mig_${randomBytes(5).toString('hex')}`;
  const processes = 8;
  const script = Array.from(
    { length: 12 },
    (_, i) => `create table if not exists mig_${i} (id bigint primary key, v text not null default '');
     create index if not exists mig_${i}_v on mig_${i} (v);`,
  ).join('\n');
  let dbs: SqlDatabase[] = [];

  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.close()));
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('eight processes running the same script at once all succeed, and the tables exist once', async () => {
    // One pool each, as separate processes would have.
    dbs = await Promise.all(
      Array.from({ length: processes }, () => openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 1 })),
    );
    const results = await Promise.allSettled(dbs.map((db) => db.exec(script)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const { rows } = await dbs[0]!.query<{ n: number }>(
      `select count(*)::int as n from pg_tables where schemaname = $1 and tablename like 'mig\\_%'`,
      [schema],
    );
    expect(rows[0]!.n).toBe(12);
  });
});
