import type { LookupAddress } from 'node:dns';
import { addressRefusal, callbackUrlRefusal, egressLookup, egressPolicy } from './egress-policy.js';

const none = egressPolicy([]);

describe('egress policy', () => {
  it.each([
    ['http://127.0.0.1:5432/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://[fd00:ec2::254]/', 'cloud metadata'],
    ['http://[::1]:22/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://[fc00::1]/', 'unique local'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://169.254.1.1/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://user:pw@example.com/cb', 'user name or password'],
    ['http://user@8.8.8.8/cb', 'user name or password'],
    ['ftp://example.com/cb', 'only http and https'],
    ['file:///etc/passwd', 'only http and https'],
    ['gopher://127.0.0.1:6379/', 'only http and https'],
  ])('refuses %s (%s)', (url, why) => {
    expect(callbackUrlRefusal(url, none)).toContain(why);
  });

  it.each(['https://example.com/cb', 'http://8.8.8.8:8080/cb', 'https://[2606:4700::1111]/cb', 'http://localhost:9/'])(
    'lets %s pass at save time (names are checked when connecting)',
    (url) => {
      expect(callbackUrlRefusal(url, none)).toBeUndefined();
    },
  );

  it('allows exactly what CALLBACK_ALLOWED_TARGETS lists', () => {
    const policy = egressPolicy(['127.0.0.1/32', '10.0.0.0/8', '::1']);
    expect(callbackUrlRefusal('http://127.0.0.1:9999/cb', policy)).toBeUndefined();
    expect(callbackUrlRefusal('http://[::ffff:127.0.0.1]:9999/cb', policy)).toBeUndefined();
    expect(callbackUrlRefusal('http://10.9.8.7/cb', policy)).toBeUndefined();
    expect(callbackUrlRefusal('http://[::1]/cb', policy)).toBeUndefined();
    expect(callbackUrlRefusal('http://127.0.0.2/cb', policy)).toContain('loopback');
    expect(callbackUrlRefusal('http://169.254.169.254/', policy)).toContain('metadata');
    expect(addressRefusal('192.168.0.1', policy)).toContain('private');
  });

  it.each([
    ['http://[::169.254.169.254]/latest/meta-data/', '169.254.169.254'],
    ['http://[::7f00:1]:5432/', '127.0.0.1'],
    ['http://[::10.0.0.1]/', '10.0.0.1'],
    ['http://[::a00:1]/', '10.0.0.1'],
    ['http://[::8.8.8.8]/', '8.8.8.8'],
    ['http://[0:0:0:0:0:0:c0a8:101]/', '192.168.1.1'],
  ])('refuses the IPv4-compatible IPv6 address %s, naming the IPv4 address it embeds', (url, ipv4) => {
    expect(callbackUrlRefusal(url, none)).toContain(`an IPv4-compatible IPv6 address (::/96) that embeds ${ipv4}`);
  });

  it.each([
    ['http://[::ffff:0:7f00:1]/', 'IPv4-translated'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'NAT64'],
    ['http://[64:ff9b:1::7f00:1]/', 'NAT64'],
    ['http://[2002:7f00:1::1]/', '6to4'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Teredo'],
  ])('refuses %s, an IPv6 form that embeds an IPv4 address (%s)', (url, why) => {
    expect(callbackUrlRefusal(url, none)).toContain(why);
  });

  it('allows an IPv4-compatible address only where its IPv6 form is allow-listed', () => {
    expect(callbackUrlRefusal('http://[::7f00:1]/', egressPolicy(['127.0.0.1/32']))).toContain('IPv4-compatible');
    expect(callbackUrlRefusal('http://[::7f00:1]/', egressPolicy(['::7f00:1']))).toBeUndefined();
    expect(callbackUrlRefusal('http://[::7f00:1]/', egressPolicy(['::/96']))).toBeUndefined();
  });

  it('refuses a malformed allow-list instead of allowing nothing or everything', () => {
    expect(() => egressPolicy(['127.0.0.1/33', 'nonsense'])).toThrow(/127\.0\.0\.1\/33.*nonsense/);
  });

  describe('connect-time lookup', () => {
    const fakeDns =
      (answers: LookupAddress[]) =>
      (_host: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void): void =>
        callback(null, answers);
    const resolve = (policy: ReturnType<typeof egressPolicy>, answers: LookupAddress[], all: boolean) =>
      new Promise<{ error: (Error & { code?: string }) | null; address: unknown }>((done) =>
        egressLookup(policy, fakeDns(answers) as never)('cb.example.com', { all }, (error, address) =>
          done({ error, address }),
        ),
      );

    it('refuses a name that resolves to an internal address (DNS rebinding)', async () => {
      const { error } = await resolve(none, [{ address: '127.0.0.1', family: 4 }], false);
      expect(error).toMatchObject({ code: 'ERR_EGRESS_REFUSED' });
      expect(error!.message).toBe(
        'cb.example.com resolves to 127.0.0.1, a loopback address; callbacks go to public addresses only (CALLBACK_ALLOWED_TARGETS allows others)',
      );
      const mapped = await resolve(none, [{ address: '::ffff:169.254.169.254', family: 6 }], true);
      expect(mapped.error?.message).toContain('cloud metadata');
      for (const address of [
        '::a9fe:a9fe',
        '::7f00:1',
        '::10.0.0.1',
        '::8.8.8.8',
        '64:ff9b::7f00:1',
        '2002:a00:1::1',
      ]) {
        const embedded = await resolve(none, [{ address, family: 6 }], true);
        expect([address, embedded.error?.message]).toEqual([address, expect.stringContaining('embeds')]);
      }
    });

    it('hands the socket only the allowed addresses of a mixed answer', async () => {
      const answers = [
        { address: '10.0.0.5', family: 4 },
        { address: '93.184.215.14', family: 4 },
      ];
      expect(await resolve(none, answers, true)).toEqual({
        error: null,
        address: [{ address: '93.184.215.14', family: 4 }],
      });
      expect(await resolve(none, answers, false)).toEqual({ error: null, address: '93.184.215.14' });
    });

    it('connects to an allow-listed private address', async () => {
      const policy = egressPolicy(['127.0.0.1/32']);
      expect(await resolve(policy, [{ address: '127.0.0.1', family: 4 }], false)).toEqual({
        error: null,
        address: '127.0.0.1',
      });
    });
  });
});
