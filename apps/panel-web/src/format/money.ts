/**
 * The panel API sends amounts as JSON numbers of TRY (lira, up to 2 decimals), not kuruş: see
 * `PanelTransactionSchema` in libs/contracts/src/panel/transactions.ts ("Amounts travel as JSON
 * numbers of TRY on the wire and as bigint kuruş inside"). A string is a decimal lira amount; a
 * bigint is kuruş (the only integer type that cannot have lost precision on the way).
 * Money is always shown with Turkish formatting (1.234,56 ₺), whatever the UI language: operators
 * compare these figures with Turkish bank statements.
 */
const TRY = new Intl.NumberFormat('tr-TR', {
  style: 'currency',
  currency: 'TRY',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function formatTry(amount: string | number | bigint): string {
  if (typeof amount === 'bigint') {
    const negative = amount < 0n;
    const kurus = negative ? -amount : amount;
    // Intl takes a decimal string exactly (no float rounding for large amounts).
    const lira = `${negative ? '-' : ''}${kurus / 100n}.${String(kurus % 100n).padStart(2, '0')}`;
    return TRY.format(lira as Intl.StringNumericLiteral);
  }
  if (typeof amount === 'string') {
    const text = amount.trim();
    if (!/^-?\d+(\.\d+)?$/.test(text)) return amount;
    return TRY.format(text as Intl.StringNumericLiteral);
  }
  if (!Number.isFinite(amount)) return String(amount);
  return TRY.format(amount);
}

/** Whole lira with Turkish grouping and no currency sign (chart axes: 1.400, not "1,4 B"). */
export function formatLiraAxis(amount: number): string {
  return new Intl.NumberFormat('tr-TR', { maximumFractionDigits: 0 }).format(amount);
}

/**
 * An operator's typed lira amount ("1300,75", "1 300.75", "1300") as the API's decimal string
 * ("1300.75"); null unless it is a positive amount with at most two decimals.
 */
export function parseLiraInput(text: string): string | null {
  const normalized = text.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^\d{1,13}(\.\d{1,2})?$/.test(normalized)) return null;
  return /[1-9]/.test(normalized) ? normalized : null;
}
