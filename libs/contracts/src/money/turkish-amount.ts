import { MAX_AMOUNT_KURUS, type Kurus } from './kurus.js';

/**
 * An amount as operators copy it from a Turkish bank screen or statement, into kuruş:
 * `45000`, `45.000`, `45.000,00`, `45000,00`, `45 000`, `₺45.000,50`, `45000 TL`, `45000.5`.
 * A comma is the decimal separator and dots group thousands; without a comma, dots are thousands
 * when every group after the first has exactly three digits (`45.000`), else one dot is a decimal
 * point with at most two decimals (`45000.5`). Anything else (letters, two commas, `4.50.0`) is null,
 * so a search text that is not an amount never matches by amount.
 */
export function parseTurkishAmountKurus(input: string): Kurus | null {
  const text = input
    .trim()
    .replace(/^₺\s*/, '')
    .replace(/\s*(?:TL|TRY|₺)$/i, '')
    .replace(/[\s\u00a0]/g, '');
  let whole: string;
  let fraction = '';
  const comma = /^(\d{1,3}(?:\.\d{3})+|\d+),(\d{1,2})$/.exec(text);
  if (comma) {
    whole = comma[1]!.replace(/\./g, '');
    fraction = comma[2]!;
  } else if (/^\d{1,3}(?:\.\d{3})+$/.test(text)) {
    whole = text.replace(/\./g, '');
  } else {
    const dot = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
    if (!dot) return null;
    whole = dot[1]!;
    fraction = dot[2] ?? '';
  }
  if (whole.length > 13) return null;
  const kurus = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (kurus <= 0n || kurus > MAX_AMOUNT_KURUS) return null;
  return kurus;
}
