import { PreparedStatementNames } from '../src/sql/prepared-statement-names.js';

describe('PreparedStatementNames', () => {
  it('names a statement with parameters by its text, the same name every time', () => {
    const names = new PreparedStatementNames(4, 1_000);
    const first = names.nameOf('select $1::int', [1]);
    expect(first).toMatch(/^tg_[0-9a-f]{24}$/);
    expect(names.nameOf('select $1::int', [2])).toBe(first);
    expect(names.nameOf('select $1::text', ['a'])).not.toBe(first);
  });

  it('leaves scripts without parameters and over-long texts unnamed', () => {
    const names = new PreparedStatementNames(4, 20);
    expect(names.nameOf('create table t (a int); select 1', undefined)).toBeUndefined();
    expect(names.nameOf('select 1', [])).toBeUndefined();
    expect(names.nameOf(`select $1 ${'x'.repeat(20)}`, [1])).toBeUndefined();
    expect(names.size).toBe(0);
  });

  it('stops naming new texts at its limit and keeps the names it gave', () => {
    const names = new PreparedStatementNames(2, 1_000);
    const a = names.nameOf('select $1 as a', [1]);
    const b = names.nameOf('select $1 as b', [1]);
    expect(names.nameOf('select $1 as c', [1])).toBeUndefined();
    expect(names.nameOf('select $1 as a', [1])).toBe(a);
    expect(names.nameOf('select $1 as b', [1])).toBe(b);
    expect(names.size).toBe(2);
  });
});
