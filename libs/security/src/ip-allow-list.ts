import ipaddr from 'ipaddr.js';

/** CIDR allow-list check (ipaddr.js); an empty list allows every address. IPv4-mapped IPv6 is unwrapped. */
export function ipAllowed(ip: string, allowList: readonly string[]): boolean {
  if (allowList.length === 0) return true;
  if (!ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  return allowList.some((entry) => {
    try {
      const [range, bits] = entry.includes('/')
        ? ipaddr.parseCIDR(entry)
        : [ipaddr.parse(entry), entry.includes(':') ? 128 : 32];
      return range.kind() === address.kind() && address.match(range, bits);
    } catch {
      return false;
    }
  });
}
