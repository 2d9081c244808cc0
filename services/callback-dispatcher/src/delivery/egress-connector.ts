import type { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import { EgressRefusedError, addressRefusal, egressLookup, type EgressPolicy } from '@transfergate/security';

/**
 * undici's connector with the egress policy in front (libs/security egress-policy): a host name is
 * resolved by egressLookup, which hands the socket only allowed addresses (so DNS rebinding between
 * save and send does not pass), and an IP-literal host, which net.connect would use without any
 * lookup, is checked here. A refusal fails the connection with EgressRefusedError before a byte is
 * sent.
 */
export function egressConnector(
  policy: EgressPolicy,
  options: { timeoutMs: number; lookup?: typeof dnsLookup },
): buildConnector.connector {
  const connect = buildConnector({
    timeout: options.timeoutMs,
    lookup: egressLookup(policy, options.lookup) as never,
  });
  return (target, callback) => {
    if (isIP(target.hostname)) {
      const refusal = addressRefusal(target.hostname, policy);
      if (refusal) return callback(new EgressRefusedError(refusal), null);
    }
    return connect(target, callback);
  };
}
