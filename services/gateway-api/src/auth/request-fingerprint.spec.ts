import { requestFingerprint } from './request-fingerprint.js';

describe('requestFingerprint: what a request asks for, not how it was spelled', () => {
  const FIELDS = { op: 'deposit', form: 'h2h', transactionId: 'T-1', amountKurus: 15_050n, fullname: 'Ayşe Yılmaz' };

  it('is a SHA-256 hex digest, the same for the same fields in any order', () => {
    const fingerprint = requestFingerprint(FIELDS);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const reversed = Object.fromEntries(Object.entries(FIELDS).reverse());
    expect(requestFingerprint(reversed)).toBe(fingerprint);
  });

  it('changes with any value, the amount to the kuruş', () => {
    const fingerprint = requestFingerprint(FIELDS);
    for (const [key, value] of [
      ['op', 'withdrawal'],
      ['form', 'merchant'],
      ['transactionId', 'T-2'],
      ['amountKurus', 15_051n],
      ['fullname', 'Ayse Yilmaz'],
    ] as const) {
      expect(requestFingerprint({ ...FIELDS, [key]: value })).not.toBe(fingerprint);
    }
  });

  it('reads a bigint and its decimal text alike (the amount is compared as a number of kuruş)', () => {
    expect(requestFingerprint({ ...FIELDS, amountKurus: '15050' })).toBe(requestFingerprint(FIELDS));
  });

  it('tells a field sent as undefined from one never named, and from an empty one', () => {
    const absent = requestFingerprint(FIELDS);
    const undefinedField = requestFingerprint({ ...FIELDS, callbackUrl: undefined });
    const emptyField = requestFingerprint({ ...FIELDS, callbackUrl: '' });
    expect(new Set([absent, undefinedField, emptyField]).size).toBe(3);
    // Two requests without a callback_url (both undefined) still match.
    expect(requestFingerprint({ ...FIELDS, callbackUrl: undefined })).toBe(undefinedField);
  });

  it('cannot be fooled by moving text between fields', () => {
    expect(requestFingerprint({ a: 'xy', b: 'z' })).not.toBe(requestFingerprint({ a: 'x', b: 'yz' }));
    expect(requestFingerprint({ a: 'null' })).not.toBe(requestFingerprint({ a: undefined }));
  });
});
