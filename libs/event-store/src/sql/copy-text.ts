/**
 * Rows in PostgreSQL's COPY text format (tab-separated, one line per row, `\N` for null), for a
 * bulk load through `COPY … FROM STDIN`. The server parses each value with its column type's input
 * function, as a `text::type` cast does, so a value means the same as in a parameterised INSERT.
 */
export type CopyValue = string | number | bigint | null | undefined;

/** A value is text, an integer or null: what a read model's row holds before it is written. */
export function copyText(rows: readonly object[], columns: readonly string[]): string {
  let text = '';
  for (const row of rows) {
    const values = row as Record<string, CopyValue>;
    for (let i = 0; i < columns.length; i += 1) {
      if (i > 0) text += '\t';
      text += copyValue(values[columns[i]!]);
    }
    text += '\n';
  }
  return text;
}

/** Backslash, tab, newline and carriage return are the format's own; escaping the backslash also covers `\.` and a literal `\N`. */
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export function copyValue(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`copy: ${value} is not a safe integer`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'string') throw new Error(`copy: a ${typeof value} value`);
  // PostgreSQL text cannot hold NUL; the server would refuse it anyway, with a less clear error.
  if (value.includes('\u0000')) throw new Error('copy: a value with a NUL character');
  return SPECIAL.test(value) ? value.replace(SPECIALS, (ch) => ESCAPES[ch]!) : value;
}
