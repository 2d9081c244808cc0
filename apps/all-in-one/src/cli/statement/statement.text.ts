import { kurusToDecimalString, type MerchantStatement, type StatementBalance } from '@transfergate/contracts';

const tr = (kurus: string) => kurusToDecimalString(BigInt(kurus));
const balanceLine = (label: string, b: StatementBalance) =>
  `${label}: booked ${tr(b.bookedKurus)} TRY, held ${tr(b.heldKurus)} TRY, available ${tr(b.availableKurus)} TRY`;

/** The statement for a terminal: a header, one line per entry, the closing balance. */
export function statementAsText(statement: MerchantStatement): string {
  const lines = [
    `Statement of ${statement.merchantName} (${statement.merchantId})`,
    `from ${statement.from} to ${statement.to} (ledger versions ${statement.openingLedgerVersion + 1}..${statement.closingLedgerVersion})`,
    balanceLine('opening', statement.opening),
    '',
    ['at', 'txn', 'external id', 'entry', 'phase', 'debit', 'credit', 'booked', 'available'].join('\t'),
  ];
  for (const e of statement.entries) {
    lines.push(
      [
        e.at,
        e.transactionNumber ?? '?',
        e.externalId ?? '?',
        e.type,
        e.phase,
        tr(e.debitKurus),
        tr(e.creditKurus),
        tr(e.bookedBalanceKurus),
        tr(e.availableBalanceKurus),
      ].join('\t'),
    );
  }
  lines.push('', balanceLine('closing', statement.closing), `${statement.entries.length} entries`, '');
  return lines.join('\n');
}
