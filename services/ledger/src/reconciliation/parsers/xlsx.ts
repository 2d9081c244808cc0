import type readXlsxFile from 'read-excel-file/node';
import type { CsvMapping } from '@transfergate/contracts';
import { mapRows, type Cell } from './tabular.js';
import { ProblemList, type ParsedStatement } from './statement.js';
import { assertXlsxBounded } from './xlsx-bounds.js';

/**
 * A bank's XLSX export, first sheet, with read-excel-file (MIT). Numbers are taken as the cell's own
 * text (`parseNumber` keeps the stored decimal string, so no float touches an amount); date cells
 * arrive as Date at UTC midnight of the calendar day and are read back as that day.
 */
export async function parseXlsx(content: Buffer, mapping: CsvMapping): Promise<ParsedStatement> {
  // Loaded here, when a workbook arrives: the reader (with its unzip and XML parts) is not needed before.
  const { default: readXlsx } = await import('read-excel-file/node');
  // Bounded before the reader inflates anything (xlsx-bounds.ts): a zip bomb is refused, not unpacked.
  await assertXlsxBounded(content);
  const problems = new ProblemList();
  let sheets: Awaited<ReturnType<typeof readXlsxFile<{ numeric: string }>>> = [];
  try {
    sheets = await readXlsx<{ numeric: string }>(content, { parseNumber: (s) => ({ numeric: s }) });
  } catch (error) {
    problems.add('file', `unreadable XLSX: ${error instanceof Error ? error.message : String(error)}`);
    problems.throwIfAny();
  }
  const first = sheets[0];
  if (!first) {
    problems.add('file', 'the workbook has no sheet');
    problems.throwIfAny();
  }
  const rows: Cell[][] = first!.data.map((row) =>
    row.map((value): Cell => {
      if (value === null || value === undefined) return null;
      if (value instanceof Date) return { day: value.toISOString().slice(0, 10) };
      if (typeof value === 'object' && 'numeric' in value) return value;
      return String(value);
    }),
  );
  return mapRows(rows, mapping, 'xlsx');
}
