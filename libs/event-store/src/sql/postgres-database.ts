import type { Pool, PoolClient, PoolConfig, QueryResult } from 'pg';
import { finished } from 'node:stream/promises';
import type { SqlDatabase, SqlExecutor } from './sql-database.js';
import { copyBytes } from './copy-text.js';
import { PreparedStatementNames } from './prepared-statement-names.js';

export interface PostgresOptions {
  url: string;
  /** Schema to create and use (tests isolate themselves in one schema each). */
  schema?: string;
  poolSize?: number;
}

/** Schema, table and column names this module writes into SQL: plain, unquoted identifiers only. */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openPostgres(options: PostgresOptions): Promise<SqlDatabase> {
  // Loaded here: an embedded (PGlite) process never needs the client.
  const { default: pg } = await import('pg');
  const { from: copyFrom } = await import('pg-copy-streams');
  const schema = options.schema;
  if (schema !== undefined && !IDENTIFIER.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client({ connectionString: options.url });
    await admin.connect();
    try {
      // Serialised like every migration script (see exec): concurrent creates race in the catalog.
      await admin.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}); create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const connection: PostgresConnection = { url: options.url, ...(schema ? { schema } : {}) };
  const pool = new pg.Pool(postgresPoolConfig(connection, options.poolSize ?? 20));
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const statements = new PreparedStatementNames(PREPARED_STATEMENTS_MAX, PREPARED_TEXT_MAX_CHARS);
  const run = (runner: Pool | PoolClient, sql: string, params?: readonly unknown[]) => {
    const values = params as unknown[] | undefined;
    const name = statements.nameOf(sql, params);
    return name === undefined ? runner.query(sql, values) : runner.query({ name, text: sql, values });
  };

  const database: SqlDatabase = {
    kind: 'postgres',
    async query<Row>(sql: string, params?: readonly unknown[]) {
      return { rows: lastRows<Row>(await run(pool, sql, params)) };
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const executor: SqlExecutor = {
          async query<Row>(sql: string, params?: readonly unknown[]) {
            return { rows: lastRows<Row>(await run(client, sql, params)) };
          },
          async copyRows(table: string, columns: readonly string[], rows: readonly object[]) {
            for (const name of [table, ...columns])
              if (!IDENTIFIER.test(name)) throw new Error(`copy: invalid identifier ${name}`);
            if (rows.length === 0) return;
            const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
            // One write: the caller bounds the rows per call, so the text is a few MB at most.
            stream.end(copyBytes(rows, columns));
            await finished(stream);
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
      // Services started side by side on an empty database run their `create … if not exists` scripts at
      // once, and PostgreSQL's catalog races on them (duplicate key in pg_type). A multi-statement
      // simple query is one implicit transaction, so this transaction-scoped lock serialises every
      // migration script on the server until its script commits.
      await pool.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY});\n${sql}`);
    },
    async close() {
      await pool.end();
    },
  };
  CONNECTIONS.set(database, connection);
  return database;
}

/** Where a PostgreSQL database was opened: enough for another thread to open its own connections. */
export interface PostgresConnection {
  url: string;
  schema?: string;
}

/** Kept beside the database object, not on it, so that printing the object never prints the URL (it may hold a password). */
const CONNECTIONS = new WeakMap<SqlDatabase, PostgresConnection>();

/** The connection `db` was opened with, for a thread of its own (the replay's reader); undefined for PGlite. */
export function postgresConnectionOf(db: SqlDatabase): PostgresConnection | undefined {
  return CONNECTIONS.get(db);
}

/** pg's pool settings for a connection: the one place its schema becomes the search path. */
export function postgresPoolConfig(connection: PostgresConnection, max: number): PoolConfig {
  if (connection.schema !== undefined && !IDENTIFIER.test(connection.schema)) {
    throw new Error(`invalid schema name ${connection.schema}`);
  }
  return {
    connectionString: connection.url,
    max,
    ...(connection.schema ? { options: `-c search_path=${connection.schema}` } : {}),
  };
}

/**
 * Distinct statement texts prepared per connection (each costs the server a cached plan per
 * connection: 20 connections x 256 stays small); texts past the limit run unnamed.
 */
const PREPARED_STATEMENTS_MAX = 256;
const PREPARED_TEXT_MAX_CHARS = 64 * 1024;

/** One key for every migration script on the server (an arbitrary constant: 't','g','m','1' as bytes). */
const MIGRATION_LOCK_KEY = 0x74676d31;

/** A script of several statements (no parameters) answers one result per statement: its rows are the last one's. */
function lastRows<Row>(result: QueryResult | QueryResult[]): Row[] {
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  return (last?.rows ?? []) as Row[];
}
