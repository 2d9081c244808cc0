import { parse } from 'csv-parse/sync';
import type { CsvMapping } from '@transfergate/contracts';
import { mapRows } from './tabular.js';
import { ProblemList, type ParsedStatement } from './statement.js';

/**
 * A bank's CSV export (csv-parse: RFC 4180 quoting, ragged rows allowed). A UTF-8 BOM is dropped;
 * a file that is not valid UTF-8 is read as Windows-1254 (Turkish), which older bank exports use.
 */
export function parseCsv(content: Buffer, mapping: CsvMapping): ParsedStatement {
  const problems = new ProblemList();
  let rows: string[][] = [];
  try {
    rows = parse(decodeText(content), {
      delimiter: mapping.delimiter,
      relax_column_count: true,
      bom: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch (error) {
    problems.add('file', `unreadable CSV: ${error instanceof Error ? error.message : String(error)}`);
    problems.throwIfAny();
  }
  return mapRows(rows, mapping, 'csv');
}

export function decodeText(content: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return new TextDecoder('windows-1254').decode(content);
  }
}
