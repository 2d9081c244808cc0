import { parseBlocklistCsv } from './blocklist-csv.js';

describe('parseBlocklistCsv', () => {
  it('reads value, reason and expiry, skipping a header and blank lines, with quoted cells', () => {
    expect(
      parseBlocklistCsv(
        'value,reason,expiresAt\r\n"Yılmaz, Ayşe",chargeback,2027-01-01T00:00:00Z\n\nmule42,"said ""hi""",\n',
      ),
    ).toEqual([
      { value: 'Yılmaz, Ayşe', reason: 'chargeback', expiresAt: '2027-01-01T00:00:00.000Z' },
      { value: 'mule42', reason: 'said "hi"' },
    ]);
  });

  it('reads semicolon-separated files', () => {
    expect(parseBlocklistCsv('TR330006100519786457841326;mule')).toEqual([
      { value: 'TR330006100519786457841326', reason: 'mule' },
    ]);
  });

  it('refuses an unreadable expiry and an empty file, naming the line', () => {
    expect(() => parseBlocklistCsv('a,b,not-a-date')).toThrow('line 1 has an unreadable expiry');
    expect(() => parseBlocklistCsv('value,reason\n')).toThrow('the CSV has no entries');
  });
});
