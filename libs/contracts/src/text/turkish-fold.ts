const TURKISH_FOLD: Record<string, string> = {
  İ: 'i',
  I: 'i',
  ı: 'i',
  i: 'i',
  Ş: 's',
  ş: 's',
  Ğ: 'g',
  ğ: 'g',
  Ü: 'u',
  ü: 'u',
  Ö: 'o',
  ö: 'o',
  Ç: 'c',
  ç: 'c',
};

/**
 * Case- and Turkish-letter-insensitive form for comparisons: İ/I/ı/i all become `i`, ş→s, ğ→g,
 * ü→u, ö→o, ç→c, other accents dropped, anything but letters and digits becomes one space. The
 * one form in which the reconciliation compares payers and the personal-data layer names a customer.
 */
export function foldTurkish(text: string): string {
  return text
    .replace(/[İIıiŞşĞğÜüÖöÇç]/g, (c) => TURKISH_FOLD[c]!)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
