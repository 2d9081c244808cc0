import { MAX_BLOCKLIST_VALUE_LENGTH, normalizeIban, type BlocklistField } from '@transfergate/contracts';
import { foldTurkish } from '../queries/transaction-search.js';

/**
 * A value as blocklists store it and requests are looked up by: names folded the way the panel's
 * search folds Turkish letters (`Işık ÖZTÜRK` = `isik ozturk`), IBANs without spaces, phones as their
 * last ten digits, TCKNs checked by their checksum. Undefined when the value cannot be one of its
 * field (an import row then says why; a request field is then simply not looked up).
 */
export function normaliseBlocklistValue(field: BlocklistField, raw: string): string | undefined {
  const text = raw.trim();
  if (text.length === 0 || text.length > MAX_BLOCKLIST_VALUE_LENGTH) return undefined;
  switch (field) {
    case 'fullName':
    case 'username':
      return normaliseName(text);
    case 'userId':
      return text;
    case 'tckn':
      return tcknValid(text) ? text : undefined;
    case 'iban': {
      const iban = normalizeIban(text);
      return /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban) ? iban : undefined;
    }
    case 'ip':
      return normaliseIpOrCidr(text);
    case 'email':
      return /^[^\s@]+@[^\s@]+$/.test(text) ? text.toLowerCase() : undefined;
    case 'phone': {
      const digits = text.replace(/\D/g, '');
      return digits.length >= 10 ? digits.slice(-10) : undefined;
    }
  }
}

/** Turkish letters folded to their Latin base, lower case, inner whitespace collapsed. */
export function normaliseName(name: string): string {
  return foldTurkish(name.trim()).toLowerCase().replace(/\s+/g, ' ');
}

/**
 * A Turkish national id (T.C. Kimlik No): eleven digits, not starting with 0; the tenth digit is
 * (7 × the sum of the odd places − the sum of the even places among the first nine) mod 10, the
 * eleventh the sum of the first ten mod 10.
 */
export function tcknValid(text: string): boolean {
  if (!/^[1-9]\d{10}$/.test(text)) return false;
  const d = [...text].map(Number);
  const odd = d[0]! + d[2]! + d[4]! + d[6]! + d[8]!;
  const even = d[1]! + d[3]! + d[5]! + d[7]!;
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  if (tenth !== d[9]) return false;
  return d.slice(0, 10).reduce((a, b) => a + b, 0) % 10 === d[10];
}

/** An IPv4 address as a 32-bit unsigned number, undefined if it is not one. */
export function ipv4ToNumber(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/**
 * An IPv4 address (`a.b.c.d`), an IPv4 network (`a.b.c.d/len`, stored by its network address), or an
 * IPv6 address (lower case, compared whole). `::ffff:`-mapped IPv4 is read as IPv4.
 */
export function normaliseIpOrCidr(text: string): string | undefined {
  const lower = text.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '');
  const slash = lower.indexOf('/');
  if (slash < 0) {
    if (ipv4ToNumber(lower) !== undefined) return lower;
    return /^[0-9a-f:]+$/.test(lower) && lower.includes(':') ? lower : undefined;
  }
  const address = ipv4ToNumber(lower.slice(0, slash));
  const bitsText = lower.slice(slash + 1);
  if (address === undefined || !/^\d{1,2}$/.test(bitsText) || Number(bitsText) > 32) return undefined;
  const bits = Number(bitsText);
  return `${numberToIpv4(networkOf(address, bits))}/${bits}`;
}

/** The network address of `address` under a prefix of `bits`. */
export function networkOf(address: number, bits: number): number {
  if (bits === 0) return 0;
  const hostBits = 32 - bits;
  return Math.floor(address / 2 ** hostBits) * 2 ** hostBits;
}

function numberToIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}
