import { firstDuplicateKey } from './duplicate-json-keys.js';

describe('duplicate JSON keys', () => {
  it.each([
    ['{"amount":10,"amount":99999}', 'body.amount'],
    ['{"a":1,"b":{"x":1,"y":2,"x":3}}', 'body.b.x'],
    ['{"items":[{"id":1},{"id":2,"id":3}]}', 'body.items.1.id'],
    ['{"a":"x","\\u0061":"y"}', 'body.a'],
    ['{"k\\"q":1,"k\\"q":2}', 'body.k"q'],
    ['[{"s":"a,\\"b\\":{","s":1}]', 'body.0.s'],
  ])('finds the duplicate in %s', (text, path) => {
    expect(firstDuplicateKey(text)).toBe(path);
  });

  it.each([
    '{"amount":10,"currency":"TRY"}',
    '{"a":{"x":1},"b":{"x":1}}',
    '[{"id":1},{"id":1}]',
    '{"s":"\\"amount\\":1,\\"amount\\":2","amount":1}',
    '{"a\\\\":1,"a":2}',
    '"text"',
    '42',
    '{}',
  ])('finds none in %s', (text) => {
    expect(firstDuplicateKey(text)).toBeUndefined();
  });

  it('stays linear on an object of many keys, and finds a duplicate among them', () => {
    const many = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
    const text = JSON.stringify(many);
    const start = Date.now();
    expect(firstDuplicateKey(text)).toBeUndefined();
    expect(Date.now() - start).toBeLessThan(1_000);
    expect(firstDuplicateKey(`${text.slice(0, -1)},"k19999":0}`)).toBe('body.k19999');
  });

  it('adds little to JSON.parse on a deposit body (measured: the ratio is printed)', () => {
    const body = JSON.stringify({
      apikey: 'ak_h2h_00001',
      transaction_id: 'TX-2026-000123456',
      amount: 1500.5,
      fullname: 'Ayşe Yılmaz',
      hash: 'a'.repeat(64),
      callback_url: 'https://merchant.example.com/callbacks/deposit',
      user_id: 'u-829301',
      note: 'ödeme "havale" \\ test',
    });
    const iterations = 20_000;
    const time = (work: () => void) => {
      for (let i = 0; i < 2_000; i++) work();
      const start = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) work();
      return Number(process.hrtime.bigint() - start) / iterations;
    };
    const parseNs = time(() => JSON.parse(body));
    const scanNs = time(() => firstDuplicateKey(body));
    console.log(
      `deposit body ${body.length} chars: JSON.parse ${parseNs.toFixed(0)} ns, duplicate scan ${scanNs.toFixed(0)} ns (${(scanNs / parseNs).toFixed(2)}x of the parse)`,
    );
    // Loose bound for a shared machine: the scan must stay of the parse's order, not a multiple of it.
    expect(scanNs).toBeLessThan(parseNs * 3);
  });
});
