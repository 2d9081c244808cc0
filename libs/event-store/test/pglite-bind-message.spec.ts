import { protocol } from '@electric-sql/pglite';
import { bindExecuteSync, type BindValue } from '../src/sql/pglite-bind-message.js';

/**
 * The prepared-statement path builds its Bind + Execute + Sync messages itself (for speed): they
 * must be byte for byte what PGlite's own serializer builds, for every kind of parameter.
 */
describe('PGlite Bind message', () => {
  const execute = protocol.serialize.execute({});
  const sync = protocol.serialize.sync();
  const pglites = (statement: string, values: BindValue[]) => {
    const parts = [protocol.serialize.bind({ statement, values: values as never[] }), execute, sync];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.byteLength;
    }
    return out;
  };

  const cases: Array<[string, BindValue[]]> = [
    ['no parameters', []],
    ['ascii and NULL', ['42', null, 'hello', '']],
    [
      'multi-byte text (Turkish, CJK, emoji pairs)',
      ['ğüşiöçİ', '中文', '💸 ödeme 🇹🇷', JSON.stringify({ a: 'Ş'.repeat(500) })],
    ],
    ['bytes in binary format', [new Uint8Array([0xde, 0xad, 0xbe, 0xef]), 'x', new Uint8Array([]).buffer]],
    ['a large JSON payload', [JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ i, name: `müşteri ${i}` })))]],
  ];
  it.each(cases)('%s', (_, values) => {
    for (const statement of ['tg_1', 'tg_12345']) {
      expect(Buffer.from(bindExecuteSync(statement, values, execute, sync))).toEqual(
        Buffer.from(pglites(statement, values)),
      );
    }
  });

  it('a view into a larger buffer sends only its own bytes', () => {
    const backing = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const view = backing.subarray(2, 4);
    expect(Buffer.from(bindExecuteSync('tg_1', [view], execute, sync))).toEqual(
      Buffer.from(pglites('tg_1', [new Uint8Array([3, 4])])),
    );
  });
});
