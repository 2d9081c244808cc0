import ipaddr from 'ipaddr.js';

type AllowedRange = readonly [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Allow-lists held parsed; a full set is emptied before the next one goes in. */
export const MAX_PARSED_ALLOW_LISTS = 1_000;

/**
 * Parsed allow-lists by their content (not by the array's identity, so a list changed in place is
 * never answered from its old ranges). ipaddr.js's parsing is regular-expression work: a list of
 * five entries costs 60 µs per request when parsed on every check, more than a deposit's own validation.
 */
const parsedLists = new Map<string, readonly AllowedRange[]>();

/** An entry that does not parse never matches (as when it was parsed per check). */
function rangesOf(allowList: readonly string[]): readonly AllowedRange[] {
  const key = allowList.join('\n');
  const held = parsedLists.get(key);
  if (held) return held;
  const ranges: AllowedRange[] = [];
  for (const entry of allowList) {
    try {
      ranges.push(
        entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.parse(entry), entry.includes(':') ? 128 : 32],
      );
    } catch {
      // not an address or range: matches nothing
    }
  }
  if (parsedLists.size >= MAX_PARSED_ALLOW_LISTS) parsedLists.clear();
  parsedLists.set(key, ranges);
  return ranges;
}

/** CIDR allow-list check (ipaddr.js); an empty list allows every address. IPv4-mapped IPv6 is unwrapped. */
export function ipAllowed(ip: string, allowList: readonly string[]): boolean {
  if (allowList.length === 0) return true;
  if (!ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  const kind = address.kind();
  return rangesOf(allowList).some(([range, bits]) => range.kind() === kind && address.match(range, bits));
}
