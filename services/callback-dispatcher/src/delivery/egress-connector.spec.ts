import { Agent, request } from 'undici';
import { egressPolicy } from '@transfergate/security';
import { egressConnector } from './egress-connector.js';

/**
 * The connector refuses an IP-literal target that embeds an IPv4 address before a byte is sent
 * (net.connect uses a literal without any lookup, so the lookup's check never sees it).
 */
describe('egress connector', () => {
  const refusalOf = async (url: string, allowed: string[] = []) => {
    const dispatcher = new Agent({ connect: egressConnector(egressPolicy(allowed), { timeoutMs: 2_000 }) });
    try {
      await request(url, { dispatcher });
      return undefined;
    } catch (error) {
      return error as Error & { code?: string };
    } finally {
      await dispatcher.close();
    }
  };

  it.each([
    'http://[::169.254.169.254]/latest/meta-data/',
    'http://[::7f00:1]:9/',
    'http://[::10.0.0.1]/',
    'http://[::ffff:0:7f00:1]:9/',
    'http://[64:ff9b::7f00:1]:9/',
    'http://[2002:7f00:1::1]:9/',
  ])('refuses %s at connect time', async (url) => {
    const error = await refusalOf(url);
    expect(error).toMatchObject({ code: 'ERR_EGRESS_REFUSED' });
    expect(error!.message).toContain('embeds');
  });
});
