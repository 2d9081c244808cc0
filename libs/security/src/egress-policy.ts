import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Where outgoing callbacks may go. Operators set callback URLs, so without a policy a callback is a
 * request from inside our network to any address they name (databases on loopback, the cloud
 * metadata service, the office LAN) and the callback log shows the answer. Only public unicast
 * addresses are called; private targets need an explicit allow-list (CALLBACK_ALLOWED_TARGETS).
 *
 * Range classification is ipaddr.js's (`range()`), not hand-written parsing: everything it does not
 * call `unicast` is refused (loopback, private, unique local, link-local, carrier-grade NAT,
 * unspecified, broadcast, multicast, reserved, documentation, NAT64/6to4/Teredo forms that embed an
 * IPv4 address). IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export interface EgressPolicy {
  /** CIDR ranges that may be called although they are not public (`127.0.0.1/32`, `10.0.0.0/8`). */
  readonly allowed: ReadonlyArray<readonly [ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

/** Thrown (and passed to connect callbacks) when a target is refused; `code` lets callers tell it apart. */
export class EgressRefusedError extends Error {
  readonly code = 'ERR_EGRESS_REFUSED';
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'EgressRefusedError';
  }
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address (RFC 1918)',
  uniqueLocal: 'a unique local address (fc00::/7)',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  rfc6145: 'an IPv4-translated IPv6 address (::ffff:0:0:0/96) that embeds an IPv4 address',
  rfc6052: 'a NAT64 IPv6 address (64:ff9b::/96, 64:ff9b:1::/48) that embeds an IPv4 address',
  '6to4': 'a 6to4 IPv6 address (2002::/16) that embeds an IPv4 address',
  teredo: 'a Teredo IPv6 address (2001::/32) that embeds an IPv4 address',
};

/** Cloud metadata services: named on their own because they are the usual SSRF prize. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

/**
 * Parses an allow-list of CIDR ranges (a bare address means just that address). Throws a RangeError
 * naming every bad entry, so a configuration mistake stops the start instead of allowing nothing.
 */
export function egressPolicy(allowedTargets: readonly string[] = []): EgressPolicy {
  const problems: string[] = [];
  const allowed: Array<readonly [ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const entry of allowedTargets.map((e) => e.trim()).filter(Boolean)) {
    try {
      if (entry.includes('/')) allowed.push(ipaddr.parseCIDR(entry));
      else {
        const address = ipaddr.parse(entry);
        allowed.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      }
    } catch {
      problems.push(`"${entry}" is not an address or CIDR range`);
    }
  }
  if (problems.length > 0) throw new RangeError(`invalid callback allow-list: ${problems.join('; ')}`);
  return { allowed };
}

/** `CALLBACK_ALLOWED_TARGETS`: a comma or whitespace separated CIDR list. */
export function allowedTargetsFrom(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function isAllowListed(address: ipaddr.IPv4 | ipaddr.IPv6, policy: EgressPolicy): boolean {
  return policy.allowed.some(([range, bits]) => {
    if (range.kind() === address.kind()) return address.match(range, bits);
    // An allow-listed IPv4 range also covers its IPv4-mapped IPv6 form, and the other way round.
    if (range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return address.match((range as ipaddr.IPv6).toIPv4Address(), bits - 96);
    }
    return false;
  });
}

const HINT = '; callbacks go to public addresses only (CALLBACK_ALLOWED_TARGETS allows others)';

/** What kind of refused address this is ("a loopback address"), or undefined when it may be called. */
function refusedKind(ip: string, policy: EgressPolicy): string | undefined {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(text)) return 'not an IP address';
  // process(): an IPv4-mapped IPv6 address (::ffff:127.0.0.1) becomes the IPv4 address it carries.
  const address = ipaddr.process(canonicalIpv6(text));
  if (isAllowListed(address, policy)) return undefined;
  // ::/96, the deprecated IPv4-compatible form (`::169.254.169.254` is written `::a9fe:a9fe` once
  // a URL parser has seen it): ipaddr.js calls it unicast, yet a stack that still routes it reaches
  // the IPv4 address it carries. Refused whole (:: and ::1 are named as what they are below).
  if (address.kind() === 'ipv6' && isIpv4Compatible(address as ipaddr.IPv6)) {
    return `an IPv4-compatible IPv6 address (::/96) that embeds ${embeddedIpv4(address as ipaddr.IPv6)}`;
  }
  const range = address.range();
  if (range === 'unicast') return undefined;
  if (METADATA_ADDRESSES.has(address.toString())) return 'a cloud metadata address';
  return RANGE_NAMES[range] ?? `a reserved address (${range})`;
}

/**
 * IPv6 text with a dotted tail in WHATWG's canonical hex form. ipaddr.js reads `::10.0.0.1` (the
 * IPv4-compatible form) as `::ffff:10.0.0.1` (the mapped one), so `::8.8.8.8` would pass as 8.8.8.8;
 * the URL parser writes both as the kernel sees them (`::a00:1`, `::ffff:a00:1`).
 */
function canonicalIpv6(text: string): string {
  if (!text.includes(':') || !text.includes('.')) return text;
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return text;
  }
}

/** In ::/96 but not the unspecified or loopback address. */
function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  return parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1);
}

function embeddedIpv4(address: ipaddr.IPv6): string {
  const [high, low] = [address.parts[6]!, address.parts[7]!];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Why this IP address may not be called, or undefined when it may. Not an IP address: refused. */
export function addressRefusal(ip: string, policy: EgressPolicy): string | undefined {
  const kind = refusedKind(ip, policy);
  return kind === undefined ? undefined : `${ip} is ${kind}${HINT}`;
}

/**
 * Checks a callback URL when it is saved: http or https, no user name or password, and a host that is
 * not a refused IP address. URL parsing is WHATWG's, which turns `0x7f.1` or `2130706433` into
 * 127.0.0.1 first. Host names are not resolved here (an answer now says nothing about later): every
 * address they resolve to is checked when a callback connects (egressLookup).
 */
export function callbackUrlRefusal(text: string, policy: EgressPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${JSON.stringify(text.slice(0, 200))} is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `only http and https callback URLs are called, not ${url.protocol}`;
  }
  if (url.username || url.password) return 'a callback URL must not contain a user name or password';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!ipaddr.isValid(host)) return undefined;
  const refusal = addressRefusal(host, policy);
  return refusal ? `callback URL ${url.origin}: ${refusal}` : undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type LookupFunction = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for net/tls `connect` (undici's `connect.lookup`): resolves the name and hands the
 * socket only the addresses the policy allows, so a name that resolves (or is re-bound between save
 * and send) to an internal address is never connected to: the address checked is the address used.
 * When none is left the connection fails with EgressRefusedError naming the first refusal. Handles
 * both the single-address and the `all: true` form (Node's Happy Eyeballs asks for all addresses).
 */
export function egressLookup(policy: EgressPolicy, base: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const resolved = addresses as unknown as LookupAddress[];
      const usable = resolved.filter(({ address }) => refusedKind(address, policy) === undefined);
      const first = usable[0];
      if (!first) {
        const refused = resolved[0];
        const why = refused ? `${refused.address}, ${refusedKind(refused.address, policy)}` : 'no address';
        return callback(new EgressRefusedError(`${hostname} resolves to ${why}${HINT}`), []);
      }
      if (options.all) return callback(null, usable);
      return callback(null, first.address, first.family);
    });
  };
}
