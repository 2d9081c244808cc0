import type { CsvMapping } from '@transfergate/contracts';
import { WarningList, boundLine } from './line-bounds.js';
import { foldTurkish, parseDateText, parseMoneyText } from './turkish-text.js';
import {
  MAX_LINES_PER_STATEMENT,
  ProblemList,
  type ParsedLine,
  type ParsedStatement,
  type StatementFormat,
} from './statement.js';

/** A cell as a tabular reader hands it over: text, or a calendar day already read from a date cell. */
export type Cell = string | { day: string } | { numeric: string } | null;

/** Rows searched for the header (banks print the account, period and title above it). */
const HEADER_SEARCH_ROWS = 30;

/**
 * Maps the rows of a CSV or XLSX export to statement lines with a column mapping. Blank rows and
 * rows without a date and amount after the data (totals, footers) end nothing: a row with a date
 * but an unreadable amount (or the reverse) is a problem that refuses the file, a fully empty row
 * is skipped, and a row whose date cell holds text that is not a date ("Toplam") is listed as
 * skipped, never silently imported.
 */
export function mapRows(rows: Cell[][], mapping: CsvMapping, format: StatementFormat): ParsedStatement {
  const problems = new ProblemList();
  const wanted = Object.entries(mapping.columns).filter((e): e is [string, string] => typeof e[1] === 'string');
  const headerIndex = rows.slice(0, HEADER_SEARCH_ROWS).findIndex((row) => {
    const names = new Set(row.map((c) => (typeof c === 'string' ? foldTurkish(c) : '')));
    return wanted.every(([, name]) => names.has(foldTurkish(name)));
  });
  if (headerIndex < 0) {
    problems.add(
      'header',
      `no row within the first ${HEADER_SEARCH_ROWS} has every mapped column: ${wanted.map(([, n]) => n).join(', ')}`,
    );
    problems.throwIfAny();
  }
  const header = rows[headerIndex]!.map((c) => (typeof c === 'string' ? foldTurkish(c) : ''));
  const col = new Map(wanted.map(([field, name]) => [field, header.indexOf(foldTurkish(name))]));
  const warnings = new WarningList();
  const result: ParsedStatement = { format, lines: [], skipped: [], warnings: [] };
  const cellOf = (row: Cell[], field: string): Cell => {
    const i = col.get(field);
    return i === undefined || i < 0 ? null : (row[i] ?? null);
  };
  const textOf = (row: Cell[], field: string): string | undefined => {
    const c = cellOf(row, field);
    if (c === null) return undefined;
    const s = typeof c === 'string' ? c.trim() : 'day' in c ? c.day : c.numeric;
    return s === '' ? undefined : s;
  };
  /** A stored number cell (XLSX) is `1234.56` whatever the locale; text follows the mapping. */
  const moneyOf = (row: Cell[], field: string): bigint | undefined => {
    const c = cellOf(row, field);
    if (c !== null && typeof c === 'object' && 'numeric' in c) return parseMoneyText(c.numeric, '.');
    const s = textOf(row, field);
    return s === undefined ? undefined : parseMoneyText(s, mapping.decimalMark);
  };
  for (let r = headerIndex + 1; r < rows.length; r++) {
    const row = rows[r]!;
    const at = `row ${r + 1}`;
    if (row.every((c) => c === null || (typeof c === 'string' && c.trim() === ''))) continue;
    const dateCell = cellOf(row, 'date');
    const dateText = textOf(row, 'date');
    if (!dateText) {
      result.skipped.push({ at, reason: 'no date (a total or a note row)' });
      continue;
    }
    if (typeof dateCell === 'string' && !/\d/.test(dateText)) {
      result.skipped.push({ at, reason: `not a booking row: ${JSON.stringify(dateText.slice(0, 40))}` });
      continue;
    }
    if (result.lines.length >= MAX_LINES_PER_STATEMENT) {
      problems.add(at, `more than ${MAX_LINES_PER_STATEMENT} lines: split the export`);
      break;
    }
    const line = problems.attempt(at, () => {
      const time = textOf(row, 'time');
      const when =
        typeof dateCell === 'object' && dateCell !== null && 'day' in dateCell
          ? parseDateText(time ? `${dateCell.day} ${time}` : dateCell.day, 'YMD')
          : parseDateText(time ? `${dateText} ${time}` : dateText, mapping.dateOrder);
      let signed: bigint;
      if (mapping.columns.amount) {
        const a = moneyOf(row, 'amount');
        if (a === undefined) throw new Error('no amount');
        signed = a;
      } else {
        const d = moneyOf(row, 'debit') ?? 0n;
        const c = moneyOf(row, 'credit') ?? 0n;
        if ((d !== 0n) === (c !== 0n)) throw new Error('exactly one of debit and credit must hold an amount');
        // Some banks print debits negative in the Borç column, some positive.
        signed = c !== 0n ? c : -(d < 0n ? -d : d);
      }
      if (signed === 0n) throw new Error('a zero amount');
      const parsed: ParsedLine = {
        bookedOn: when.day,
        direction: signed < 0n ? 'debit' : 'credit',
        amountKurus: signed < 0n ? -signed : signed,
        description: textOf(row, 'description') ?? '',
      };
      if (when.at) parsed.bookedAt = when.at;
      const valueDate = textOf(row, 'valueDate');
      if (valueDate) {
        const v = cellOf(row, 'valueDate');
        parsed.valueOn =
          typeof v === 'object' && v !== null && 'day' in v ? v.day : parseDateText(valueDate, mapping.dateOrder).day;
      }
      const ref = textOf(row, 'reference');
      if (ref) parsed.bankReference = ref;
      const name = textOf(row, 'counterpartyName');
      if (name) parsed.counterpartyName = name;
      const iban = textOf(row, 'counterpartyIban')?.replace(/\s+/g, '').toUpperCase();
      if (iban) parsed.counterpartyIban = iban;
      return boundLine(parsed, at, warnings);
    });
    if (line) result.lines.push(line);
  }
  problems.throwIfAny();
  result.warnings = warnings.toArray();
  return result;
}
