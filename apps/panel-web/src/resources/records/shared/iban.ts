/** An IBAN as banks print it: groups of four (TR33 0006 1005 1978 6457 8413 26). */
export function groupIban(iban: string): string {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  return compact.replace(/(.{4})(?=.)/g, '$1 ');
}
