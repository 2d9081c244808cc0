/**
 * CSV files operators open in Excel with Turkish settings: `;` between fields (the comma is the
 * decimal separator there), a UTF-8 BOM so Excel reads Turkish letters, CRLF lines, and cells that
 * start like a formula (`=`, `+`, `-`, `@`, tab, CR) prefixed with `'` so a customer name cannot run
 * as a formula on the operator's machine (CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text) && !/^-?\d+(,\d+)?$/.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(csvCell).join(';')).join('\r\n')}\r\n`;
}

/** Money for the sheet: `1250,50` (no currency sign or grouping, so Excel reads it as a number). */
export function csvLira(amount: number): string {
  return amount.toFixed(2).replace('.', ',');
}

export function downloadCsv(csv: string, name: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A react-admin exporter for any record list: one column per top-level field (objects as JSON),
 * the fields named as the API names them.
 */
export function flatCsvExporter(name: string) {
  return (records: Array<Record<string, unknown>>) => {
    const fields = [...new Set(records.flatMap((record) => Object.keys(record)))];
    downloadCsv(
      toCsv(
        fields,
        records.map((record) => fields.map((field) => record[field])),
      ),
      name,
    );
  };
}
