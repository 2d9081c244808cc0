import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres, type SqlDatabase } from '@transfergate/event-store';

/** The PostgreSQL server every machine and CI run has (docs/development.md, "Tests"). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A PostgreSQL database isolated in a fresh schema, dropped when closed. A missing server fails
 * the test loudly: these suites are the proof on a real server and must never pass vacuously.
 */
export async function openTestPostgres(prefix: string): Promise<SqlDatabase & { schema: string }> {
  const schema = `t_${prefix}_${randomBytes(5).toString('hex')}`;
  const db = await openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 24 });
  return {
    ...db,
    schema,
    async close() {
      await db.close();
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
  };
}
