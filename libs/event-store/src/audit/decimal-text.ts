/**
 * Integers as decimal ASCII written straight into a buffer, as the audit reader's page encoding
 * and recorded time need them (one string per number would cost a write call each).
 */
const ZERO = 0x30;
const MINUS = 0x2d;

/** The length of String(value) for an integer (a version may be negative in an edited row). */
export function decimalBytes(value: number): number {
  let bytes = value < 0 ? 2 : 1;
  for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) bytes += 1;
  return bytes;
}

/** Writes String(value) of an integer; returns the position after it. */
export function writeDecimal(target: Buffer, at: number, value: number): number {
  if (value < 0) {
    target[at++] = MINUS;
    value = -value;
  }
  const width = decimalBytes(value);
  writeDigits(target, at, value, width);
  return at + width;
}

/** `value` (0 ≤ value < 10^width) as `width` decimal digits, zero-padded. */
export function writeDigits(target: Buffer, at: number, value: number, width: number): void {
  for (let i = at + width - 1; i >= at; i--) {
    const rest = Math.floor(value / 10);
    target[i] = ZERO + value - rest * 10;
    value = rest;
  }
}
