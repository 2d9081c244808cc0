import type { StatementLineView } from './commands.js';

export const RECONCILIATION_CSV_COLUMNS = [
  'booked_on',
  'booked_at',
  'bank_reference',
  'direction',
  'amount',
  'counterparty',
  'description',
  'state',
  'differences',
  'deposit',
  'decision',
  'mode',
  'reason',
  'decided_by',
  'decided_at',
] as const;

const tryText = (kurus: string) => {
  const v = BigInt(kurus);
  const abs = v < 0n ? -v : v;
  return `${v < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
};

/** RFC 4180 quoting; a cell a spreadsheet would evaluate (= + - @) gets a leading `'`. */
function cell(value: string | number | undefined): string {
  let text = value === undefined ? '' : String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The per-account reconciliation report: one row per statement line with its state and decision,
 * `;`-separated (Excel on Turkish systems), CRLF, amounts as TRY with a `.` decimal mark (as the
 * merchant statement CSV).
 */
export function reconciliationToCsv(lines: readonly StatementLineView[]): string {
  const rows = [RECONCILIATION_CSV_COLUMNS.join(';')];
  for (const l of lines) {
    rows.push(
      [
        l.bookedOn,
        l.bookedAt,
        l.bankReference,
        l.direction,
        tryText(l.amountKurus),
        l.counterpartyName,
        l.description,
        l.state,
        l.differences.join(' '),
        l.number === undefined ? undefined : `TG-${l.number}`,
        l.decision,
        l.mode,
        l.reason,
        l.decidedBy,
        l.decidedAt,
      ]
        .map(cell)
        .join(';'),
    );
  }
  return `${rows.join('\r\n')}\r\n`;
}
