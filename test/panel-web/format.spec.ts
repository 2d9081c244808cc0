import { formatTry, parseLiraInput } from '../../apps/panel-web/src/format/money.js';

/** The UI's money helpers (plain functions, no browser needed). */
describe('panel web money formatting', () => {
  it('shows TRY with Turkish grouping and decimals for lira numbers, decimal strings and kuruş bigints', () => {
    expect(formatTry(1250.5)).toBe('₺1.250,50');
    expect(formatTry('1250.5')).toBe('₺1.250,50');
    expect(formatTry(125050n)).toBe('₺1.250,50');
    expect(formatTry(0)).toBe('₺0,00');
    expect(formatTry(-5n)).toBe('-₺0,05');
    // Beyond float precision: the bigint and string paths stay exact.
    expect(formatTry(99999999999999999n)).toBe('₺999.999.999.999.999,99');
    expect(formatTry('999999999999999.99')).toBe('₺999.999.999.999.999,99');
    expect(formatTry('not money')).toBe('not money');
  });

  it('reads typed amounts with a comma or a dot, refusing zero, signs and a third decimal', () => {
    expect(parseLiraInput('1300,75')).toBe('1300.75');
    expect(parseLiraInput(' 1 300.75 ')).toBe('1300.75');
    expect(parseLiraInput('10')).toBe('10');
    for (const bad of ['', '0', '0,00', '-5', '1,234', '1.2.3', '12,345', 'abc', '1e3']) {
      expect({ bad, parsed: parseLiraInput(bad) }).toEqual({ bad, parsed: null });
    }
  });
});
