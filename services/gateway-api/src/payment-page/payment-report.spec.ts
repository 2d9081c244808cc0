import type { BankSummary } from '@transfergate/contracts';
import { MAX_REPORT_LINES, parsePaymentReport } from './payment-report.js';

const BANKS: BankSummary[] = [
  { id: '00010', code: '00010', name: 'Ziraat Bankası', fast: true },
  { id: '00064', code: '00064', name: 'Türkiye İş Bankası', fast: true },
];
// 14:30 in Türkiye.
const NOW = new Date('2026-12-07T11:30:00.000Z');

describe('parsePaymentReport', () => {
  it('names the bank from the list and takes the time as Turkish time today', () => {
    expect(parsePaymentReport('bank=00064\r\nsentAt=14:05\r\n', BANKS, NOW)).toEqual({
      senderBank: 'Türkiye İş Bankası',
      transferredAt: '2026-12-07T14:05:00+03:00',
    });
  });

  it('a time ahead of now is yesterday evening (a transfer reported after midnight)', () => {
    expect(parsePaymentReport('sentAt=23:50', BANKS, new Date('2026-12-06T21:10:00.000Z'))).toEqual({
      transferredAt: '2026-12-06T23:50:00+03:00',
    });
    expect(parsePaymentReport('sentAt=23:50', BANKS, NOW)).toEqual({ transferredAt: '2026-12-06T23:50:00+03:00' });
  });

  it('leaves out what is missing, unknown or malformed, and never fails', () => {
    expect(parsePaymentReport('', BANKS, NOW)).toEqual({});
    expect(parsePaymentReport(undefined, BANKS, NOW)).toEqual({});
    expect(parsePaymentReport({ bank: '00010' }, BANKS, NOW)).toEqual({});
    expect(parsePaymentReport('bank=other\nsentAt=25:00', BANKS, NOW)).toEqual({});
    expect(parsePaymentReport('bank=99999\nsentAt=7:5', BANKS, NOW)).toEqual({});
    expect(parsePaymentReport(`bank=${'0'.repeat(300)}`, BANKS, NOW)).toEqual({});
  });

  it(`reads at most ${MAX_REPORT_LINES} lines`, () => {
    const padding = Array.from({ length: MAX_REPORT_LINES }, (_, i) => `x${i}=y`).join('\n');
    expect(parsePaymentReport(`${padding}\nbank=00010`, BANKS, NOW)).toEqual({});
    expect(parsePaymentReport(`bank=00010\n${padding}`, BANKS, NOW)).toEqual({ senderBank: 'Ziraat Bankası' });
  });
});
