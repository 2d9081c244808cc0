import { randomBytes } from 'node:crypto';

/** 192 bits: the payment page URL is a bearer capability for one deposit. */
export const PAYMENT_TOKEN_BYTES = 24;
/** Tokens drawn from one call to the CSPRNG (a call per deposit cost more than the rest of the token). */
const TOKENS_PER_DRAW = 128;

let pool = Buffer.alloc(0);
let offset = 0;

/**
 * A fresh payment token (base64url). The bytes come from the CSPRNG in blocks, as Node's own
 * randomUUID does; each byte is handed out once and never again.
 */
export function newPaymentToken(): string {
  if (offset + PAYMENT_TOKEN_BYTES > pool.length) {
    pool = randomBytes(PAYMENT_TOKEN_BYTES * TOKENS_PER_DRAW);
    offset = 0;
  }
  const token = pool.toString('base64url', offset, offset + PAYMENT_TOKEN_BYTES);
  offset += PAYMENT_TOKEN_BYTES;
  return token;
}
