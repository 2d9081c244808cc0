/**
 * A string as a PostgreSQL string literal, correct whatever `standard_conforming_strings` says:
 * quotes doubled and, when the text holds a backslash, an E'' literal with backslashes doubled
 * (libpq's PQescapeLiteral, and pg's escapeLiteral, which an embedded process does not load).
 * For a statement that must travel as one simple query (several statements, no parameters).
 */
export function sqlLiteral(text: string): string {
  // A literal cannot carry NUL; JSON.stringify never produces one (it writes \u0000).
  if (text.includes('\0')) throw new RangeError('a SQL literal cannot hold NUL');
  const quoted = text.replace(/'/g, "''");
  return text.includes('\\') ? ` E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/** `sql` with its one placeholder `$1` (and no other) replaced by `text` as a literal. */
export function inlineParameter(sql: string, text: string): string {
  const placeholders = sql.match(/\$\d+/g) ?? [];
  if (placeholders.length !== 1 || placeholders[0] !== '$1') throw new Error('inlineParameter: one $1 and no other');
  return sql.replace('$1', () => sqlLiteral(text));
}
