/** IBAN checks (ISO 13616): TR IBANs are 26 characters, TRkk + 5-digit bank code + reserve digit + 16 account digits. */

export function normalizeIban(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

/** ISO 7064 mod-97-10 over the rearranged IBAN, computed in chunks to stay inside a JS number. */
export function ibanChecksumValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' && char <= 'Z' ? (char.charCodeAt(0) - 55).toString() : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

export type IbanCheck = { ok: true; iban: string } | { ok: false; reason: string };

export function checkTurkishIban(input: string): IbanCheck {
  const iban = normalizeIban(input);
  if (!iban.startsWith('TR')) return { ok: false, reason: 'IBAN must be a Turkish (TR) IBAN' };
  if (iban.length !== 26) return { ok: false, reason: 'a TR IBAN has 26 characters' };
  if (!/^TR\d{24}$/.test(iban)) return { ok: false, reason: 'a TR IBAN has 24 digits after TR' };
  if (!ibanChecksumValid(iban)) return { ok: false, reason: 'IBAN check digits do not match (mod 97)' };
  return { ok: true, iban };
}

/** The 5-digit bank code inside a TR IBAN (EFT code), e.g. 00061 for TR33 0006 1…. */
export function turkishBankCode(iban: string): string {
  return normalizeIban(iban).slice(4, 9);
}
