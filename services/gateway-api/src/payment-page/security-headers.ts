import { randomBytes } from 'node:crypto';

/**
 * Headers of every payment-page answer. The token in the URL is the customer's only credential, so
 * nothing may cache the page or leak the URL onward (Referrer-Policy), and the page may run only
 * the one inline script and style it ships, identified by a fresh nonce per response.
 */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

const COMMON = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  // Old browsers ignore frame-ancestors; clickjacking the "I have sent" button is the risk.
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
} as const;

export function htmlHeaders(nonce: string): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    // The status poll goes to this origin only; the empty data: favicon keeps the browser from asking us.
    "connect-src 'self'",
    'img-src data:',
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    ...COMMON,
    'content-security-policy': csp,
    'content-type': 'text/html; charset=utf-8',
    // The language may come from Accept-Language; say so to anything between us and the customer.
    vary: 'Accept-Language',
  };
}

/** The 303 after the report form: no body, only where to go. */
export function redirectHeaders(location: string): Record<string, string> {
  return { ...COMMON, location };
}

export function jsonHeaders(): Record<string, string> {
  return {
    ...COMMON,
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'content-type': 'application/json; charset=utf-8',
  };
}
