/**
 * The one SQL surface the event store and read models use, so the same code runs on a PostgreSQL
 * server (pg Pool) and on embedded PGlite. Parameters are $1..$n; callers cast in SQL (::jsonb,
 * ::bigint) and read int8/xid8 columns as text so both drivers return the same JS types.
 */
export interface SqlExecutor {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
  /**
   * Bulk load of new rows with `COPY … FROM STDIN` (copy-text.ts): each value is text, an integer
   * or null, parsed by its column's input function as a `text::type` cast would. Only where the
   * driver streams COPY (a PostgreSQL server's transaction); callers fall back to an INSERT when
   * it is absent.
   */
  copyRows?(table: string, columns: readonly string[], rows: readonly object[]): Promise<void>;
}

export interface SqlDatabase extends SqlExecutor {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` in one transaction (READ COMMITTED); commits on return, rolls back on throw. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** SQLSTATE of a PostgreSQL error, whichever driver raised it. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The table a PostgreSQL error names (a constraint's), whichever driver raised it. */
export function sqlTable(error: unknown): string | undefined {
  const table = (error as { table?: unknown } | null)?.table;
  return typeof table === 'string' ? table : undefined;
}

export const UNIQUE_VIOLATION = '23505';
