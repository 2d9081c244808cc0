import { DomainError, MAX_BLOCKLIST_IMPORT_ROWS, type BlocklistEntry } from '@transfergate/contracts';

/**
 * A blocklist CSV (`value,reason,expiresAt`; comma or semicolon; an optional header row whose first
 * cell is `value`; a cell in double quotes may hold the separator, `""` is a quote). A row with a bad
 * expiry is refused with its line number; at most MAX_BLOCKLIST_IMPORT_ROWS rows.
 */
export function parseBlocklistCsv(text: string): BlocklistEntry[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const entries: BlocklistEntry[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const cells = splitCsvLine(line, line.includes(';') && !line.includes(',') ? ';' : ',');
    const value = (cells[0] ?? '').trim();
    if (index === 0 && value.toLowerCase() === 'value') continue;
    if (value === '') throw new DomainError('validation_failed', `invalid request: line ${index + 1} has no value`);
    const expiresAt = (cells[2] ?? '').trim();
    if (expiresAt && Number.isNaN(Date.parse(expiresAt)))
      throw new DomainError('validation_failed', `invalid request: line ${index + 1} has an unreadable expiry`);
    entries.push({
      value,
      reason: (cells[1] ?? '').trim(),
      ...(expiresAt ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
    });
    if (entries.length > MAX_BLOCKLIST_IMPORT_ROWS)
      throw new DomainError('validation_failed', `invalid request: at most ${MAX_BLOCKLIST_IMPORT_ROWS} rows`);
  }
  if (entries.length === 0) throw new DomainError('validation_failed', 'invalid request: the CSV has no entries');
  return entries;
}

function splitCsvLine(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}
