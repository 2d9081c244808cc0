import { normaliseBlocklistValue, normaliseName, tcknValid } from './normalise.js';

describe('blocklist normalisation', () => {
  it('folds Turkish letters and case the way the panel search does, and collapses spaces', () => {
    expect(normaliseName('  IŞIK   Öztürk ')).toBe('isik ozturk');
    expect(normaliseName('Işık ÖZTÜRK')).toBe('isik ozturk');
    expect(normaliseBlocklistValue('fullName', 'Çağrı Güneş')).toBe('cagri gunes');
  });

  it('validates a TCKN by its checksum', () => {
    expect(tcknValid('10000000146')).toBe(true);
    expect(tcknValid('10000000147')).toBe(false);
    expect(tcknValid('01234567890')).toBe(false);
    expect(tcknValid('1000000014')).toBe(false);
    expect(normaliseBlocklistValue('tckn', '10000000147')).toBeUndefined();
  });

  it('reads IBANs, phones, e-mails and IPs in their usual spellings', () => {
    expect(normaliseBlocklistValue('iban', 'tr33 0006 1005 1978 6457 8413 26')).toBe('TR330006100519786457841326');
    expect(normaliseBlocklistValue('iban', 'not an iban')).toBeUndefined();
    expect(normaliseBlocklistValue('phone', '+90 (532) 123 45 67')).toBe('5321234567');
    expect(normaliseBlocklistValue('phone', '0532 123 45 67')).toBe('5321234567');
    expect(normaliseBlocklistValue('email', ' Ayse@Example.COM ')).toBe('ayse@example.com');
    expect(normaliseBlocklistValue('email', 'nope')).toBeUndefined();
    expect(normaliseBlocklistValue('ip', '::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normaliseBlocklistValue('ip', '10.1.2.3/8')).toBe('10.0.0.0/8');
    expect(normaliseBlocklistValue('ip', '10.1.2.300')).toBeUndefined();
    expect(normaliseBlocklistValue('ip', '10.1.2.3/33')).toBeUndefined();
    expect(normaliseBlocklistValue('ip', '2001:DB8::1')).toBe('2001:db8::1');
  });
});
