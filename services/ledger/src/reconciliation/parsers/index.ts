import { CSV_PRESETS, CsvMappingSchema, type CsvMapping, type CsvPreset } from '@transfergate/contracts';
import { parseCamt } from './camt.js';
import { decodeText, parseCsv } from './csv.js';
import { parseMt940 } from './mt940.js';
import { MAX_STATEMENT_BYTES, ProblemList, type ParsedStatement, type StatementFormat } from './statement.js';
import { parseXlsx } from './xlsx.js';

export * from './statement.js';
export * from './line-bounds.js';
export { MAX_XML_DEPTH } from './camt.js';
export { MANDATORY_TAGS } from './mt940.js';
export { foldTurkish, parseMoneyText, parseDateText } from './turkish-text.js';

export interface ParseOptions {
  format: StatementFormat;
  /** CSV/XLSX: a preset name or a mapping (a mapping wins). */
  preset?: CsvPreset;
  mapping?: CsvMapping;
}

/** Parses a whole statement file or refuses it whole (StatementRefusedError with every problem). */
export async function parseStatement(content: Buffer, options: ParseOptions): Promise<ParsedStatement> {
  const problems = new ProblemList();
  if (content.length === 0) problems.add('file', 'the file is empty');
  if (content.length > MAX_STATEMENT_BYTES) problems.add('file', `larger than ${MAX_STATEMENT_BYTES} bytes`);
  problems.throwIfAny();
  switch (options.format) {
    case 'camt053':
    case 'camt052':
      return parseCamt(decodeText(content), options.format);
    case 'mt940':
      return parseMt940(decodeText(content));
    case 'csv':
      return parseCsv(content, mappingOf(options, problems));
    case 'xlsx':
      return parseXlsx(content, mappingOf(options, problems));
  }
}

function mappingOf(options: ParseOptions, problems: ProblemList): CsvMapping {
  if (options.mapping) return options.mapping;
  if (options.preset) return CsvMappingSchema.parse(CSV_PRESETS[options.preset]);
  problems.add('mapping', 'a CSV or XLSX statement needs a column mapping or a preset');
  problems.throwIfAny();
  throw new Error('unreachable');
}
