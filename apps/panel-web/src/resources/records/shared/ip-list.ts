/**
 * IP allow-lists edit as text, one address or CIDR per line (commas and spaces also separate). The
 * form keeps the text as typed (parsing on each keystroke would eat the newline being typed); the
 * save turns it into the array the API takes.
 */
export const ipListFormat = (value: unknown): string =>
  Array.isArray(value) ? value.join('\n') : typeof value === 'string' ? value : '';

export function toIpList(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string') return undefined;
  return value
    .split(/[\s,;]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}
