import { kurusToDecimalString, normalizeIban } from '@transfergate/contracts';

/**
 * What the customer reads and copies. Money stays integer kuruş until the last step: the formatter
 * receives an exact decimal string ("1250.50"), never a float, so no rounding can creep in.
 */
const TRY = new Intl.NumberFormat('tr-TR', { style: 'currency', currency: 'TRY' });

/** "₺1.250,50": Turkish grouping and decimal comma, the symbol where the tr locale (CLDR) puts it. */
export function formatTry(kurus: bigint): string {
  return TRY.format(kurusToDecimalString(kurus) as `${number}`);
}

/**
 * The amount as a banking app's amount field takes it: decimal comma, no grouping ("1250,50").
 * Grouping dots would be read as decimal points by some apps.
 */
export function amountForCopy(kurus: bigint): string {
  return kurusToDecimalString(kurus).replace('.', ',');
}

/** "TR33 0006 1005 …" for reading aloud and checking by eye; copying uses the plain IBAN. */
export function groupIban(iban: string): string {
  return normalizeIban(iban).replace(/(.{4})(?=.)/g, '$1 ');
}

export function plainIban(iban: string): string {
  return normalizeIban(iban);
}

/** The code the customer types into the transfer description, so an operator can match the payment. */
export function paymentReference(transactionNumber: number): string {
  return `TG-${transactionNumber}`;
}

/** "29:41", or "1:05:00" past an hour (the deposit TTL may be up to a day). */
export function formatCountdown(totalSeconds: number): string {
  const left = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = left % 60;
  const mm = String(minutes).padStart(2, '0');
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}
