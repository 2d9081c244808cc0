import type { SqlExecutor } from '@transfergate/event-store';

/** Bounds of one buffered batch (TIGER_STYLE): it is flushed at whichever comes first. */
export const MAX_BUFFERED_STATEMENTS = 1_000;
export const MAX_BUFFERED_SQL_BYTES = 4 * 1024 * 1024;

const WRITE = /^\s*(insert|update|delete)\b/i;
const RETURNING = /\breturning\b/i;

/** A parameter as a SQL literal, the way pg sends it: text of unknown type (the server casts it). */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') text = String(value);
  else if (Array.isArray(value) || value instanceof Date || Buffer.isBuffer(value)) {
    throw new TypeError('write batching renders strings, numbers, booleans and JSON objects only');
  } else text = JSON.stringify(value);
  if (text.includes('\0')) throw new RangeError('a SQL literal cannot hold NUL');
  const quoted = `'${text.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;
  return text.includes('\\') ? ` E${quoted}` : quoted;
}

/** `$n` placeholders replaced by literals (longest numbers first is implicit: the regex takes all digits). */
export function renderStatement(sql: string, params: readonly unknown[] = []): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= params.length)
      throw new RangeError(`statement uses $${n}, ${params.length} params given`);
    return sqlLiteral(params[index]);
  });
}

/**
 * Runs the projector's SQL with fewer round trips: a write whose result nobody reads (INSERT/UPDATE
 * without RETURNING) is buffered, and the buffer goes to the server as one multi-statement query
 * together with the next read (whose rows are the script's last result), or at flush(). Order and transaction are unchanged, so the projector
 * sees exactly the state it would see statement by statement; only the number of round trips
 * falls. For a PostgreSQL server (where each round trip costs); PGlite runs in-process and needs none.
 */
export class WriteBatchingExecutor implements SqlExecutor {
  private buffer: string[] = [];
  private bufferedBytes = 0;

  constructor(private readonly tx: SqlExecutor) {}

  async query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: Row[] }> {
    if (WRITE.test(sql) && !RETURNING.test(sql)) {
      const statement = renderStatement(sql, params);
      this.buffer.push(statement);
      this.bufferedBytes += statement.length;
      if (this.buffer.length >= MAX_BUFFERED_STATEMENTS || this.bufferedBytes >= MAX_BUFFERED_SQL_BYTES) {
        await this.flush();
      }
      return { rows: [] };
    }
    if (this.buffer.length === 0) return this.tx.query<Row>(sql, params);
    // The pending writes and this read travel together; the answer is the read's (the last statement's).
    const script = [...this.buffer, renderStatement(sql, params)].join(';\n');
    this.buffer = [];
    this.bufferedBytes = 0;
    return this.tx.query<Row>(script);
  }

  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const script = this.buffer.join(';\n');
    this.buffer = [];
    this.bufferedBytes = 0;
    // No parameters: pg sends it as one simple-protocol query, all statements in one round trip.
    await this.tx.query(script);
  }
}
