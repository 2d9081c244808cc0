import { kurusToDecimalString } from '../money/kurus.js';
import type { MerchantStatement, StatementBalance } from './statements.js';

/**
 * A statement as CSV (RFC 4180): `;` between fields (what Excel expects on Turkish systems, where `,`
 * is the decimal mark), CRLF line ends, a header row, UTF-8 without BOM. Amounts are TRY with two
 * decimals and a `.` decimal mark (exact, from kuruş; never a float); times ISO UTC. The first data
 * row is the opening balance, the last the closing balance, the rows between the entries.
 */
export const STATEMENT_CSV_SEPARATOR = ';';

export const STATEMENT_CSV_COLUMNS = [
  'row',
  'at',
  'ledger_version',
  'transaction_number',
  'transaction_id',
  'external_id',
  'transaction_type',
  'entry_type',
  'phase',
  'debit_try',
  'credit_try',
  'commission_try',
  'booked_balance_try',
  'held_try',
  'available_balance_try',
  'transfer_id',
] as const;

const NEEDS_QUOTES = /[";\r\n,]/;
/** Cells a spreadsheet would run as a formula (CSV injection): free text from callers gets a `'` first. */
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Caller-chosen text (external ids): neutralised so a spreadsheet shows it and never evaluates it. */
function text(value: string | null): string {
  if (value === null) return '';
  return FORMULA_START.test(value) ? `'${value}` : value;
}

const tryString = (kurus: string) => kurusToDecimalString(BigInt(kurus));

function balanceRow(kind: 'opening' | 'closing', at: string, version: number, balance: StatementBalance): string[] {
  return [
    kind,
    at,
    String(version),
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    tryString(balance.bookedKurus),
    tryString(balance.heldKurus),
    tryString(balance.availableKurus),
    '',
  ];
}

export function statementToCsv(statement: MerchantStatement): string {
  const rows: string[][] = [[...STATEMENT_CSV_COLUMNS]];
  rows.push(balanceRow('opening', statement.from, statement.openingLedgerVersion, statement.opening));
  for (const e of statement.entries) {
    rows.push([
      'entry',
      e.at,
      String(e.ledgerVersion),
      e.transactionNumber === null ? '' : String(e.transactionNumber),
      e.transactionId,
      text(e.externalId),
      e.transactionType ?? '',
      e.type,
      e.phase,
      tryString(e.debitKurus),
      tryString(e.creditKurus),
      tryString(e.commissionKurus),
      tryString(e.bookedBalanceKurus),
      tryString((BigInt(e.bookedBalanceKurus) - BigInt(e.availableBalanceKurus)).toString()),
      tryString(e.availableBalanceKurus),
      text(e.transferId),
    ]);
  }
  rows.push(balanceRow('closing', statement.to, statement.closingLedgerVersion, statement.closing));
  return rows.map((row) => row.map(cell).join(STATEMENT_CSV_SEPARATOR)).join('\r\n') + '\r\n';
}

/** `statement-<merchant>-<from>-<to>.csv`, safe in a Content-Disposition header on any system. */
export function statementCsvFilename(statement: MerchantStatement): string {
  const safe = (value: string) => value.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 64);
  const day = (iso: string) => iso.replace(/[:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `statement-${safe(statement.merchantName)}-${day(statement.from)}-${day(statement.to)}.csv`;
}
