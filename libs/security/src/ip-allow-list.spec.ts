import { jest } from '@jest/globals';
import ipaddr from 'ipaddr.js';
import { MAX_PARSED_ALLOW_LISTS, ipAllowed } from './ip-allow-list.js';

const LIST = ['203.0.113.0/24', '198.51.100.7', '2001:db8::/32', 'not-an-address', '10.0.0.0/8'];

describe('ipAllowed', () => {
  it.each([
    ['10.1.2.3', true],
    ['203.0.113.200', true],
    ['198.51.100.7', true],
    ['198.51.100.8', false],
    ['2001:db8::1', true],
    ['2001:db9::1', false],
    ['::ffff:10.9.9.9', true], // IPv4-mapped IPv6 is matched as IPv4
    ['::ffff:8.8.8.8', false],
    ['8.8.8.8', false],
    ['not-an-address', false], // an entry that does not parse matches nothing, not even itself
    ['', false],
  ])('%s → %s', (ip, allowed) => {
    expect(ipAllowed(ip, LIST)).toBe(allowed);
  });

  it('an empty list allows every address', () => {
    expect(ipAllowed('8.8.8.8', [])).toBe(true);
  });

  it('parses each list once, and a list changed in place is checked against its new entries', () => {
    const parse = jest.spyOn(ipaddr, 'parseCIDR');
    try {
      const list = ['192.0.2.0/28', '192.0.2.64/28'];
      for (let i = 0; i < 100; i++) expect(ipAllowed('192.0.2.70', list)).toBe(true);
      expect(parse).toHaveBeenCalledTimes(2);
      list.pop();
      expect(ipAllowed('192.0.2.70', list)).toBe(false);
      list.push('192.0.2.64/26');
      expect(ipAllowed('192.0.2.70', list)).toBe(true);
    } finally {
      parse.mockRestore();
    }
  });

  it('holds at most its bound of lists and answers the same past it', () => {
    for (let i = 0; i < MAX_PARSED_ALLOW_LISTS + 10; i++) {
      const list = [`10.${i >> 8}.${i & 255}.0/24`];
      expect(ipAllowed(`10.${i >> 8}.${i & 255}.9`, list)).toBe(true);
      expect(ipAllowed(`10.${i >> 8}.${(i + 1) & 255}.9`, list)).toBe(false);
    }
    expect(ipAllowed('10.1.2.3', LIST)).toBe(true);
  });
});
