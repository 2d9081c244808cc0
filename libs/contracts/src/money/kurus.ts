import { z } from 'zod';

/**
 * Money is TRY held as integer kuruş (1 TRY = 100 kuruş), never as a float.
 * Amounts arrive as a JSON number or a numeric string ("250", "250.00"); we parse the decimal text
 * ourselves so that 0.1 + 0.2 style float error can never reach the ledger.
 */
export type Kurus = bigint;

/** Upper bound for one amount: 1e12 TRY. Keeps every sum far inside int64 (TIGER_STYLE: explicit limits). */
export const MAX_AMOUNT_KURUS = 100_000_000_000_000n;

const DECIMAL = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

export type ParsedAmount =
  | { ok: true; kurus: Kurus; text: string }
  | { ok: false; reason: 'not_a_number' | 'too_many_decimals' | 'not_positive' | 'too_large' };

/** Parses a contract amount (number or numeric string) into kuruş. `text` keeps the amount as sent. */
export function parseAmount(input: unknown): ParsedAmount {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, reason: 'not_a_number' };
    // String(n) gives the shortest decimal that reads back as n, so 250.1 stays "250.1" and 1e21 is
    // refused below.
    text = String(input);
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    return { ok: false, reason: 'not_a_number' };
  }
  if (/^\d+\.\d{3,}$/.test(text)) return { ok: false, reason: 'too_many_decimals' };
  if (/^-/.test(text)) return { ok: false, reason: 'not_positive' };
  const match = DECIMAL.exec(text);
  if (!match) {
    return /^\d{14,}(\.\d+)?$/.test(text) ? { ok: false, reason: 'too_large' } : { ok: false, reason: 'not_a_number' };
  }
  const whole = BigInt(match[1]!);
  const fraction = BigInt((match[2] ?? '').padEnd(2, '0'));
  const kurus = whole * 100n + fraction;
  if (kurus <= 0n) return { ok: false, reason: 'not_positive' };
  if (kurus > MAX_AMOUNT_KURUS) return { ok: false, reason: 'too_large' };
  return { ok: true, kurus, text };
}

/** Strict kuruş from a trusted decimal string, for config files and tests. Throws on bad input. */
export function kurusFrom(input: number | string): Kurus {
  const parsed = parseAmount(input);
  if (!parsed.ok) throw new RangeError(`invalid TRY amount ${JSON.stringify(input)}: ${parsed.reason}`);
  return parsed.kurus;
}

/** Renders kuruş as a JSON number of TRY for the wire (the contract's `amount: number`). */
export function kurusToNumber(kurus: Kurus): number {
  // Exact for every value below MAX_AMOUNT_KURUS: 1e14 < 2^53.
  return Number(kurus) / 100;
}

/** Renders kuruş as a fixed two-decimal string ("250.00"). */
export function kurusToDecimalString(kurus: Kurus): string {
  const sign = kurus < 0n ? '-' : '';
  const abs = kurus < 0n ? -kurus : kurus;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/**
 * round(amount) of the signature rules: round-half-up to an integer of the amount as sent
 * (docs/architecture.md). Works on kuruş so 10.5 → 11 and 10.49 → 10 exactly.
 */
export function roundForHash(kurus: Kurus): bigint {
  return (kurus + 50n) / 100n;
}

/** Commission in kuruş for a percentage given in basis points (1.5 % = 150 bp), rounded half-up. */
export function commissionKurus(amount: Kurus, basisPoints: number): Kurus {
  if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000) {
    throw new RangeError(`commission basis points out of range: ${basisPoints}`);
  }
  return (amount * BigInt(basisPoints) + 5_000n) / 10_000n;
}

/** Percent (as configured, e.g. 1.5) to basis points, refusing more than two decimals. */
export function percentToBasisPoints(percent: number): number {
  const bp = Math.round(percent * 100);
  if (!Number.isFinite(percent) || percent < 0 || percent > 100 || Math.abs(bp - percent * 100) > 1e-6) {
    throw new RangeError(`commission percent must be 0..100 with at most 2 decimals, got ${percent}`);
  }
  return bp;
}

/**
 * Why an amount was refused, as the rest of a sentence: whoever reports the issue names the field
 * first (parseBody: `amount is not a number`), so the words never repeat it.
 */
export const AMOUNT_PROBLEM: Record<Extract<ParsedAmount, { ok: false }>['reason'], string> = {
  not_a_number: 'is not a number',
  too_many_decimals: 'has more than 2 decimals',
  not_positive: 'must be greater than 0',
  too_large: 'is larger than 1000000000000 TRY',
};

/** zod: a contract amount (number or numeric string) → kuruş. */
export const AmountSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const parsed = parseAmount(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: AMOUNT_PROBLEM[parsed.reason] });
    return z.NEVER;
  }
  return parsed.kurus;
});

/** zod: kuruş carried inside events and commands as a decimal string (JSON has no bigint). */
export const KurusStringSchema = z.string().regex(/^-?\d{1,16}$/, 'kuruş as an integer string');
