import pg from 'pg';
import type { SqlDatabase, SqlExecutor } from './sql-database.js';

export interface PostgresOptions {
  url: string;
  /** Schema to create and use (tests isolate themselves in one schema each). */
  schema?: string;
  poolSize?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openPostgres(options: PostgresOptions): Promise<SqlDatabase> {
  const schema = options.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client({ connectionString: options.url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 20,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);

  const database: SqlDatabase = {
    kind: 'postgres',
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const result = await pool.query(sql, params as unknown[] | undefined);
      return { rows: result.rows as Row[] };
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const executor: SqlExecutor = {
          async query<Row>(sql: string, params?: readonly unknown[]) {
            const result = await client.query(sql, params as unknown[] | undefined);
            return { rows: result.rows as Row[] };
          },
        };
        const value = await work(executor);
        await client.query('commit');
        return value;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async close() {
      await pool.end();
    },
  };
  return database;
}
