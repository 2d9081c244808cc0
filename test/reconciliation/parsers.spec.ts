import {
  parseDateText,
  parseMoneyText,
  parseStatement,
  StatementRefusedError,
  foldTurkish,
  type ParsedStatement,
} from '../../services/ledger/src/reconciliation/parsers/index.js';
import { CSV_PRESETS, CsvMappingSchema } from '@transfergate/contracts';
import {
  ACCOUNT_IBAN,
  camt,
  garantiCsv,
  isBankasiCsv,
  isBankasiXlsx,
  mt940,
  type SyntheticLine,
} from './statement-files.js';

const LINES: SyntheticLine[] = [
  {
    ref: 'B0001',
    day: '2026-11-23',
    time: '09:15',
    direction: 'credit',
    amountKurus: 150000n,
    description: 'TG-1042 ödeme',
    name: 'Ayşe Yılmaz',
    iban: 'TR120006200000000000000001',
  },
  {
    ref: 'B0002',
    day: '2026-11-23',
    time: '10:01',
    direction: 'credit',
    amountKurus: 123456789n,
    description: 'tg 1043 havale',
    name: 'ŞÜKRÜ ÇAĞLAR ÖZIŞIK',
  },
  {
    ref: 'B0003',
    day: '2026-11-23',
    time: '11:30',
    direction: 'debit',
    amountKurus: 5001n,
    description: 'EFT masrafı',
  },
  {
    ref: 'B0004',
    day: '2026-11-24',
    time: '23:59',
    direction: 'credit',
    amountKurus: 1n,
    description: 'Tğ1044; kuruş',
    name: 'İbrahim Işık',
  },
];

async function parse(
  content: string | Buffer,
  format: 'camt053' | 'camt052' | 'mt940' | 'csv' | 'xlsx',
  preset?: 'garanti-bbva' | 'is-bankasi',
) {
  return parseStatement(Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), {
    format,
    ...(preset ? { preset } : {}),
  });
}

async function refusal(promise: Promise<unknown>): Promise<StatementRefusedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StatementRefusedError);
  return error as StatementRefusedError;
}

function core(s: ParsedStatement) {
  return s.lines.map((l) => ({ ref: l.bankReference, day: l.bookedOn, dir: l.direction, kurus: l.amountKurus }));
}
const expectedCore = LINES.map((l) => ({ ref: l.ref, day: l.day, dir: l.direction, kurus: l.amountKurus }));

describe('Turkish numbers, dates and letters', () => {
  it('reads amounts exactly in kuruş, refusing what is not an amount', () => {
    expect(parseMoneyText('1.234,56', ',')).toBe(123456n);
    expect(parseMoneyText('-1.234,56', ',')).toBe(-123456n);
    expect(parseMoneyText('1234,5', ',')).toBe(123450n);
    expect(parseMoneyText('250', ',')).toBe(25000n);
    expect(parseMoneyText('+1.000.000,01 TL', ',')).toBe(100000001n);
    expect(parseMoneyText('1,234.56', '.')).toBe(123456n);
    expect(parseMoneyText('0.01', '.')).toBe(1n);
    expect(parseMoneyText('12,50-', ',')).toBe(-1250n);
    for (const bad of ['1.23,45', '1,234', '12,345', 'abc', '', '1.234,567', '--5', '1e5']) {
      expect(() => parseMoneyText(bad, ',')).toThrow(/not an amount/);
    }
  });

  it('reads dates and times as Turkish local time (UTC+3), refusing impossible days', () => {
    expect(parseDateText('23.11.2026', 'DMY')).toEqual({ day: '2026-11-23' });
    expect(parseDateText('23/11/2026 14:05', 'DMY')).toEqual({ day: '2026-11-23', at: '2026-11-23T11:05:00.000Z' });
    expect(parseDateText('01.01.2027 01:30:10', 'DMY').at).toBe('2026-12-31T22:30:10.000Z');
    expect(parseDateText('2026-11-23', 'YMD')).toEqual({ day: '2026-11-23' });
    expect(() => parseDateText('31.02.2026', 'DMY')).toThrow(/no such date/);
    expect(() => parseDateText('2026-11-23', 'DMY')).toThrow(/not a date/);
  });

  it('folds the dotted and dotless i and the other Turkish letters', () => {
    expect(foldTurkish('İBRAHİM IŞIK')).toBe('ibrahim isik');
    expect(foldTurkish('ibrahim ışık')).toBe('ibrahim isik');
    expect(foldTurkish('ŞÜKRÜ ÇAĞLAR Öz')).toBe('sukru caglar oz');
  });
});

describe('statement parsers', () => {
  it('camt.053: every booked entry, balances, names, IBANs, times', async () => {
    const s = await parse(camt(LINES, 'camt053', { openingKurus: 1000n }), 'camt053');
    expect(core(s)).toEqual(expectedCore);
    expect(s.accountIban).toBe(ACCOUNT_IBAN);
    expect(s.openingBalanceKurus).toBe(1000n);
    expect(s.closingBalanceKurus).toBe(1000n + 150000n + 123456789n - 5001n + 1n);
    expect(s.lines[0]).toMatchObject({
      counterpartyName: 'Ayşe Yılmaz',
      counterpartyIban: 'TR120006200000000000000001',
      description: 'TG-1042 ödeme',
      bookedAt: '2026-11-23T06:15:00.000Z',
    });
    expect(s.lines[2]!.description).toBe('EFT masrafı');
  });

  it('camt.052: pending entries are skipped and listed, booked ones read', async () => {
    const s = await parse(camt(LINES, 'camt052', { pendingExtra: true }), 'camt052');
    expect(core(s)).toEqual(expectedCore);
    expect(s.skipped).toEqual([{ at: 'entry 5', reason: 'status PDNG (not booked yet)' }]);
  });

  it('MT940 with free-text and with structured :86:', async () => {
    for (const structured of [false, true]) {
      const s = await parse(mt940(LINES, { structured }), 'mt940');
      expect(core(s)).toEqual(expectedCore);
      expect(s.accountIban).toBe(ACCOUNT_IBAN);
      expect(s.lines[0]!.counterpartyName).toBe('Ayşe Yılmaz');
      expect(s.lines[0]!.description).toContain('TG-1042');
      expect(s.closingBalanceKurus).toBe(150000n + 123456789n - 5001n + 1n);
    }
    const s = await parse(mt940(LINES, { structured: true }), 'mt940');
    expect(s.lines[0]!.counterpartyIban).toBe('TR120006200000000000000001');
  });

  it('CSV, Garanti BBVA preset: preamble and total row skipped, signed Turkish amounts', async () => {
    const s = await parse(garantiCsv(LINES), 'csv', 'garanti-bbva');
    expect(core(s)).toEqual(expectedCore);
    expect(s.lines[1]!.description).toBe('ŞÜKRÜ ÇAĞLAR ÖZIŞIK tg 1043 havale');
    expect(s.skipped).toEqual([{ at: 'row 9', reason: 'not a booking row: "Toplam"' }]);
  });

  it('CSV, İş Bankası preset: Borç/Alacak, time and sender columns, also in Windows-1254', async () => {
    const s = await parse(isBankasiCsv(LINES), 'csv', 'is-bankasi');
    expect(core(s)).toEqual(expectedCore);
    expect(s.lines[3]).toMatchObject({ counterpartyName: 'İbrahim Işık', bookedAt: '2026-11-24T20:59:00.000Z' });
    const cp1254 = encode1254(isBankasiCsv(LINES));
    const again = await parse(cp1254, 'csv', 'is-bankasi');
    expect(again.lines.map((l) => l.counterpartyName)).toEqual(s.lines.map((l) => l.counterpartyName));
  });

  it('XLSX (İş Bankası layout): number cells and date cells, exact kuruş', async () => {
    const s = await parse(await isBankasiXlsx(LINES), 'xlsx', 'is-bankasi');
    expect(core(s)).toEqual(expectedCore);
    expect(s.lines[1]!.counterpartyName).toBe('ŞÜKRÜ ÇAĞLAR ÖZIŞIK');
  });

  it('a custom mapping (comma-separated, dot decimals, ISO dates)', async () => {
    const mapping = CsvMappingSchema.parse({
      delimiter: ',',
      decimalMark: '.',
      dateOrder: 'YMD',
      columns: { date: 'date', description: 'memo', amount: 'amount', reference: 'id' },
    });
    const s = await parseStatement(Buffer.from('id,date,memo,amount\nX1,2026-11-23,"TG-9, thanks",1250.5\n'), {
      format: 'csv',
      mapping,
    });
    expect(s.lines).toEqual([
      {
        bankReference: 'X1',
        bookedOn: '2026-11-23',
        direction: 'credit',
        amountKurus: 125050n,
        description: 'TG-9, thanks',
      },
    ]);
  });
});

describe('a file is refused whole, with every problem', () => {
  it('one bad row among good ones refuses the file and names the row', async () => {
    const text = garantiCsv(LINES).replace('1.500,00', '1.500,001').replace('23.11.2026;ŞÜKRÜ', '31.02.2026;ŞÜKRÜ');
    const e = await refusal(parse(text, 'csv', 'garanti-bbva'));
    expect(e.problems).toEqual([
      { at: 'row 5', message: 'not an amount: "1.500,001"' },
      { at: 'row 6', message: 'no such date: 2026-2-31' },
    ]);
  });

  it('wrong formats, foreign currencies, broken XML, missing columns, empty files', async () => {
    expect((await refusal(parse(mt940(LINES), 'camt053'))).problems[0]!.message).toMatch(
      /not well-formed XML|not a camt.053/,
    );
    expect((await refusal(parse(camt(LINES), 'camt052'))).problems[0]!.message).toMatch(/not a camt.052/);
    expect(
      (await refusal(parse(camt(LINES).replace('Ccy="TRY">1500.00', 'Ccy="EUR">1500.00'), 'camt053'))).problems[0]!
        .message,
    ).toMatch(/in EUR/);
    expect((await refusal(parse(camt(LINES).replace('</Document>', ''), 'camt053'))).problems[0]!.message).toMatch(
      /not well-formed/,
    );
    expect((await refusal(parse(mt940(LINES).replace('C1500,00', 'C15O0,00'), 'mt940'))).problems[0]).toMatchObject({
      at: 'line 6',
    });
    expect((await refusal(parse('hello', 'mt940'))).problems[0]!.message).toMatch(/not an MT940/);
    expect((await refusal(parse(isBankasiCsv(LINES), 'csv', 'garanti-bbva'))).problems[0]!.at).toBe('header');
    expect((await refusal(parse('', 'csv', 'garanti-bbva'))).problems[0]!.message).toBe('the file is empty');
    expect((await refusal(parse(Buffer.from('not a zip'), 'xlsx', 'is-bankasi'))).problems[0]!.message).toMatch(
      /unreadable XLSX/,
    );
    expect((await refusal(parse(garantiCsv(LINES), 'csv'))).problems[0]!.message).toMatch(/mapping or a preset/);
  });

  it('a row with both a debit and a credit, and the presets all satisfy the mapping schema', async () => {
    const text = isBankasiCsv(LINES).replace(';;1.500,00;', ';1,00;1.500,00;');
    expect((await refusal(parse(text, 'csv', 'is-bankasi'))).problems[0]!.message).toMatch(
      /exactly one of debit and credit/,
    );
    for (const preset of Object.values(CSV_PRESETS)) expect(() => CsvMappingSchema.parse(preset)).not.toThrow();
  });
});

function encode1254(text: string): Buffer {
  const map: Record<string, number> = {
    Ğ: 0xd0,
    ğ: 0xf0,
    İ: 0xdd,
    ı: 0xfd,
    Ş: 0xde,
    ş: 0xfe,
    Ç: 0xc7,
    ç: 0xe7,
    Ö: 0xd6,
    ö: 0xf6,
    Ü: 0xdc,
    ü: 0xfc,
  };
  return Buffer.from([...text].map((c) => map[c] ?? c.charCodeAt(0)));
}
