import { execFileSync } from 'node:child_process';
import { kurusFrom } from '../money/kurus.js';
import { digestsEqual, h2hHash, infrastructureSecurityKey, md5CallbackSignature, merchantHash } from './rules.js';

/**
 * Expected digests come from the system's coreutils (sha256sum / md5sum), not from node:crypto, so a
 * mistake in the code under test cannot also be in the oracle.
 */
function systemDigest(tool: 'sha256sum' | 'md5sum', input: string): string {
  const out = execFileSync('sh', ['-c', `printf %s "$1" | ${tool}`, 'sh', input], { encoding: 'utf8' });
  const hex = out.split(' ')[0] ?? '';
  if (!/^[0-9a-f]+$/.test(hex)) throw new Error(`unexpected ${tool} output: ${out}`);
  return hex;
}
const sha256 = (input: string) => systemDigest('sha256sum', input);
const md5 = (input: string) => systemDigest('md5sum', input);

describe('merchantHash: SHA256(apiKey + transactionId + apiSecret + round(amount))', () => {
  const expected = sha256('mk_live_42TX-2024-0001ms_secret_42250');

  it('matches the system digest', () => {
    const given = merchantHash('mk_live_42', 'TX-2024-0001', 'ms_secret_42', kurusFrom(250));
    expect(given).toBe(expected);
    expect(digestsEqual(expected, given)).toBe(true);
  });

  it('differs with another secret', () => {
    const given = merchantHash('mk_live_42', 'TX-2024-0001', 'ms_secret_43', kurusFrom(250));
    expect(given).not.toBe(expected);
    expect(digestsEqual(expected, given)).toBe(false);
  });

  it('compares upper-case hex as equal', () => {
    expect(digestsEqual(expected, expected.toUpperCase())).toBe(true);
  });

  it('hashes round(amount) half up: 250.50 → "251", 250.49 → "250"', () => {
    expect(merchantHash('k', 'T', 's', 25_050n)).toBe(sha256('kTs251'));
    expect(merchantHash('k', 'T', 's', 25_049n)).toBe(sha256('kTs250'));
  });

  it('hashes non-ASCII text as UTF-8', () => {
    expect(merchantHash('anahtar', 'İŞLEM-ğüşöç', 'gizli', kurusFrom('99.99'))).toBe(
      sha256('anahtarİŞLEM-ğüşöçgizli100'),
    );
  });
});

describe('h2hHash: SHA256(apikey + transaction_id + apiSecret + round(amount))', () => {
  it('matches a vector computed once with sha256sum', () => {
    // printf '%s' "ak_test_1T-1001sk_test_1250" | sha256sum
    const vector = '2034dc8b897e75e175ffec4164866f43e43adc86f82cd2761f9fa1b2b5bf9c2d';
    expect(h2hHash('ak_test_1', 'T-1001', 'sk_test_1', kurusFrom(250))).toBe(vector);
  });

  const expected = sha256('ak_test_1T-1001sk_test_1250');

  it('matches the system digest', () => {
    const given = h2hHash('ak_test_1', 'T-1001', 'sk_test_1', kurusFrom('250.00'));
    expect(given).toBe(expected);
    expect(digestsEqual(expected, given)).toBe(true);
  });

  it('differs with another secret', () => {
    const given = h2hHash('ak_test_1', 'T-1001', 'sk_test_2', kurusFrom(250));
    expect(given).not.toBe(expected);
    expect(digestsEqual(expected, given)).toBe(false);
  });

  it('compares upper-case hex as equal', () => {
    const given = h2hHash('ak_test_1', 'T-1001', 'sk_test_1', kurusFrom(250));
    expect(digestsEqual(expected, given.toUpperCase())).toBe(true);
  });

  it('hashes round(amount) half up: 250.50 → "251", 250.49 → "250"', () => {
    expect(h2hHash('ak_test_1', 'T-1001', 'sk_test_1', kurusFrom('250.50'))).toBe(
      sha256('ak_test_1T-1001sk_test_1251'),
    );
    expect(h2hHash('ak_test_1', 'T-1001', 'sk_test_1', kurusFrom('250.49'))).toBe(
      sha256('ak_test_1T-1001sk_test_1250'),
    );
  });
});

describe('infrastructureSecurityKey: SHA256(ApiKey + ApiSecret + OperationGuid)', () => {
  const guid = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
  const expected = sha256(`INFRA_KEYINFRA_SECRET${guid}`);

  it('matches the system digest', () => {
    const given = infrastructureSecurityKey('INFRA_KEY', 'INFRA_SECRET', guid);
    expect(given).toBe(expected);
    expect(digestsEqual(expected, given)).toBe(true);
  });

  it('differs with another secret', () => {
    const given = infrastructureSecurityKey('INFRA_KEY', 'OTHER_SECRET', guid);
    expect(given).not.toBe(expected);
    expect(digestsEqual(expected, given)).toBe(false);
  });

  it('compares upper-case hex as equal', () => {
    expect(digestsEqual(expected, infrastructureSecurityKey('INFRA_KEY', 'INFRA_SECRET', guid).toUpperCase())).toBe(
      true,
    );
  });
});

describe('md5CallbackSignature: MD5(transactionId + status + amount + type + apiSecret)', () => {
  const expected = md5('TX-77confirmed250.5depositcb_secret');

  it('matches the system digest', () => {
    const given = md5CallbackSignature('TX-77', 'confirmed', '250.5', 'deposit', 'cb_secret');
    expect(given).toBe(expected);
    expect(digestsEqual(expected, given)).toBe(true);
  });

  it('differs with another secret', () => {
    const given = md5CallbackSignature('TX-77', 'confirmed', '250.5', 'deposit', 'cb_secret_2');
    expect(given).not.toBe(expected);
    expect(digestsEqual(expected, given)).toBe(false);
  });

  it('compares upper-case hex as equal', () => {
    const given = md5CallbackSignature('TX-77', 'confirmed', '250.5', 'deposit', 'cb_secret');
    expect(digestsEqual(expected, given.toUpperCase())).toBe(true);
  });

  it('keeps the field order transactionId, status, amount, type, secret', () => {
    const swapped = md5('TX-77250.5confirmeddepositcb_secret');
    expect(md5CallbackSignature('TX-77', 'confirmed', '250.5', 'deposit', 'cb_secret')).not.toBe(swapped);
  });
});

describe('digestsEqual', () => {
  const expected = sha256('abc');

  it('ignores surrounding whitespace of the given digest', () => {
    expect(digestsEqual(expected, ` ${expected}\n`)).toBe(true);
  });

  it.each([undefined, null, 42, {}, '', 'abc', expected.slice(0, -1), `${expected}0`])('rejects %p', (given) => {
    expect(digestsEqual(expected, given)).toBe(false);
  });
});
