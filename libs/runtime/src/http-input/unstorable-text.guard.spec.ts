import { findUnstorableText } from './unstorable-text.guard.js';

describe('findUnstorableText', () => {
  it('passes storable text at any depth', () => {
    expect(findUnstorableText({ a: 'ş', b: [1, 'x', { c: null, d: true }], e: '😀' }, 'body')).toBeUndefined();
    expect(findUnstorableText(undefined, 'body')).toBeUndefined();
  });

  it('names the field of the first NUL or unpaired surrogate by its path', () => {
    expect(findUnstorableText('a\u0000b', 'query')).toBe('query');
    expect(findUnstorableText({ customer: { name: 'ok', note: 'x\ud800' } }, 'body')).toBe('body.customer.note');
    expect(findUnstorableText({ list: ['ok', { v: ['a', 'b\u0000'] }] }, 'body')).toBe('body.list.1.v.1');
  });

  it('names an unstorable key by the object that holds it', () => {
    expect(findUnstorableText({ customer: { ['k\u0000']: 'v' } }, 'body')).toBe('body.customer key');
    expect(findUnstorableText({ ['\udc00']: 1 }, 'body')).toBe('body key');
  });

  it('refuses nesting deeper than its bound, naming where it stopped', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 70; i++) deep = { n: deep };
    expect(findUnstorableText(deep, 'body')).toBe(`body${'.n'.repeat(64)}`);
  });

  it('does not read inherited keys', () => {
    const value = Object.create({ inherited: 'x\u0000' }) as Record<string, unknown>;
    value.own = 'fine';
    expect(findUnstorableText(value, 'body')).toBeUndefined();
  });
});
