import { scrubText } from './erase-customer.js';

describe('scrubText: the copies of erased fields in the callback and webhook logs', () => {
  const values = new Set(['Zeynep "Zee" O\\Neil', 'TR330006100519786457841326', '7']);

  it('replaces whole JSON string values equal to a field, and nothing inside another value', () => {
    const body = JSON.stringify({
      CustomerFullName: 'Zeynep "Zee" O\\Neil',
      nested: [{ iban: 'TR330006100519786457841326' }],
      userID: '7',
      amount: 7,
      note: 'order 7 of Zeynep',
    });
    expect(JSON.parse(scrubText(body, values, '[erased]'))).toEqual({
      CustomerFullName: '[erased]',
      nested: [{ iban: '[erased]' }],
      userID: '[erased]',
      amount: 7,
      note: 'order 7 of Zeynep',
    });
  });

  it('replaces form values, and leaves a text without any as it was (its spacing too)', () => {
    expect(scrubText('name=Zeynep+%22Zee%22+O%5CNeil&amount=10', values, '[erased]')).toBe(
      'name=%5Berased%5D&amount=10',
    );
    expect(scrubText('{ "a" : "b" }', values, '[erased]')).toBe('{ "a" : "b" }');
    expect(scrubText('plain words', values, '[erased]')).toBe('plain words');
  });
});
