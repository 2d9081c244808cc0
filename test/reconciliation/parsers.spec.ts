import {
  MAX_BANK_REFERENCE_CHARS,
  MAX_COUNTERPARTY_NAME_CHARS,
  MAX_DESCRIPTION_CHARS,
  MAX_REMITTANCE_LINE_CHARS,
  MAX_XML_DEPTH,
  parseDateText,
  parseMoneyText,
  parseStatement,
  StatementRefusedError,
  foldTurkish,
  type ParsedStatement,
} from '../../services/ledger/src/reconciliation/parsers/index.js';
import { screenXml } from '../../services/ledger/src/reconciliation/parsers/camt.js';
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

describe('a statement adds up or is refused', () => {
  it('camt.053: closing ≠ opening + credits − debits is refused whole, naming the difference in TRY and kuruş', async () => {
    const good = camt(LINES, 'camt053', { openingKurus: 1000n });
    // The closing balance printed 0.01 TRY higher than the entries make it.
    const closing = 1000n + 150000n + 123456789n - 5001n + 1n;
    const edited = good.replace(
      `<Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">1236027.89</Amt>`,
      `<Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">1236027.90</Amt>`,
    );
    expect(closing).toBe(123602789n);
    expect(edited).not.toBe(good);
    const e = await refusal(parse(edited, 'camt053'));
    expect(e.problems).toEqual([
      {
        at: 'balances',
        differenceKurus: '1',
        message: expect.stringContaining('a difference of 0.01 TRY, 1 kuruş') as string,
      },
    ]);
    expect(e.problems[0]!.message).toContain('opening 10.00 TRY + credits 1236067.90 TRY − debits 50.01 TRY');
    // An entry's amount changed (a 1,500.00 TRY credit made 15,000.00) is the same corruption.
    const bumped = await refusal(parse(good.replace('Ccy="TRY">1500.00', 'Ccy="TRY">15000.00'), 'camt053'));
    expect(bumped.problems[0]).toMatchObject({ at: 'balances', differenceKurus: '-1350000' });
    // A debit balance (DBIT) is negative: a statement that goes overdrawn still adds up.
    const overdrawn: SyntheticLine[] = [{ ...LINES[2]!, amountKurus: 500000n }];
    expect((await parse(camt(overdrawn, 'camt053', { openingKurus: 1000n }), 'camt053')).closingBalanceKurus).toBe(
      -499000n,
    );
  });

  it('camt.053 without its opening or closing balance, and a batch entry whose parts do not make the entry, are refused', async () => {
    const good = camt(LINES, 'camt053');
    const noClosing = good.replace(/<Bal><Tp><CdOrPrtry><Cd>CLBD<\/Cd>.*?<\/Bal>/, '');
    expect((await refusal(parse(noClosing, 'camt053'))).problems).toEqual([
      { at: 'balances', message: 'no closing balance (Bal CLBD): a camt.053 states it' },
    ]);
    const batch = good.replace(
      /<NtryDtls><TxDtls>(.*?)<\/TxDtls><\/NtryDtls>/,
      '<NtryDtls><TxDtls><Amt Ccy="TRY">1000.00</Amt>$1</TxDtls><TxDtls><Amt Ccy="TRY">400.00</Amt>$1</TxDtls></NtryDtls>',
    );
    expect((await refusal(parse(batch, 'camt053'))).problems[0]).toEqual({
      at: 'entry 1',
      message: 'the TxDtls amounts add up to 1400.00 TRY, the entry to 1500.00 TRY',
    });
  });

  it('MT940: each missing mandatory tag is named; balances that do not add up are refused', async () => {
    const good = mt940(LINES);
    const without = (tag: RegExp) => good.replace(tag, '');
    for (const [pattern, named] of [
      [/:62F:[^\r\n]*\r\n/, ':62F:/:62M:'],
      [/:60F:[^\r\n]*\r\n/, ':60F:/:60M:'],
      [/:28C:[^\r\n]*\r\n/, ':28C:'],
      [/:25:[^\r\n]*\r\n/, ':25:'],
    ] as const) {
      const e = await refusal(parse(without(pattern), 'mt940'));
      expect(e.problems).toEqual([
        { at: 'file', message: expect.stringContaining(`mandatory tag ${named}`) as string },
      ]);
    }
    const two = await refusal(parse(without(/:62F:[^\r\n]*\r\n/).replace(/:28C:[^\r\n]*\r\n/, ''), 'mt940'));
    expect(two.problems.map((p) => p.message)).toEqual([
      'the mandatory tag :28C: (statement number) is missing',
      'the mandatory tag :62F:/:62M: (closing balance) is missing',
    ]);
    // An intermediate page (:60M:/:62M:) and the older :28: are statements too.
    const page = good.replace(':60F:', ':60M:').replace(':62F:', ':62M:').replace(':28C:1/1', ':28:1');
    expect((await parse(page, 'mt940')).lines).toHaveLength(LINES.length);
    // The closing balance 1.00 TRY short of the lines.
    const short = await refusal(parse(good.replace(/(:62F:C\d{6}TRY)(\d+),(\d\d)/, '$11236016,$3'), 'mt940'));
    expect(short.problems).toEqual([
      {
        at: 'balances',
        differenceKurus: '-100',
        message: expect.stringContaining('a difference of -1.00 TRY, -100 kuruş') as string,
      },
    ]);
  });
});

describe('camt XML that is not a bank statement is refused, never parsed', () => {
  const body = camt(LINES);
  const withDoctype = (doctype: string, entityUse = '') =>
    body
      .replace('<?xml version="1.0" encoding="UTF-8"?>', `<?xml version="1.0" encoding="UTF-8"?>\n${doctype}`)
      .replace('TG-1042 ödeme', `TG-1042 ödeme${entityUse}`);

  it('any DOCTYPE: internal, external and parameter entities, and a bare one', async () => {
    const cases = [
      withDoctype('<!DOCTYPE Document [<!ENTITY lol "lol"><!ENTITY lol9 "&lol;&lol;&lol;&lol;">]>', '&lol9;'),
      withDoctype('<!DOCTYPE Document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>', '&xxe;'),
      withDoctype('<!DOCTYPE Document [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]>'),
      withDoctype('<!DOCTYPE Document SYSTEM "http://127.0.0.1:9/camt.dtd">'),
      withDoctype('<!doctype Document>'),
    ];
    for (const text of cases) {
      const e = await refusal(parse(text, 'camt053'));
      expect(e.problems).toEqual([{ at: 'line 2', message: expect.stringMatching(/DOCTYPE/) as string }]);
    }
  });

  it('an undeclared entity reference is refused, not stored as its text; the predefined ones are decoded', async () => {
    const e = await refusal(parse(body.replace('TG-1042 ödeme', 'TG-1042 &lol9;'), 'camt053'));
    expect(e.problems[0]!.message).toContain('"&lol9;"');
    const s = await parse(body.replace('TG-1042 ödeme', 'TG-1042 &amp; &#246;deme &lt;&#x131;&gt;'), 'camt053');
    expect(s.lines[0]!.description).toBe('TG-1042 & ödeme <ı>');
  });

  it(`nesting deeper than ${MAX_XML_DEPTH} levels is refused (50,000 nested tags), the usual depth is read`, async () => {
    const deep = body.replace('<RmtInf>', `<RmtInf>${'<a>'.repeat(50_000)}${'</a>'.repeat(50_000)}`);
    const e = await refusal(parse(deep, 'camt053'));
    expect(e.problems[0]!.message).toBe(`elements nested deeper than ${MAX_XML_DEPTH} levels`);
    const near = MAX_XML_DEPTH - 12;
    const fine = body.replace('<RmtInf>', `<RmtInf>${'<a x="1>2">'.repeat(near)}${'</a>'.repeat(near)}`);
    expect((await parse(fine, 'camt053')).lines).toHaveLength(LINES.length);
  });
});

describe('every text of a line is bounded', () => {
  const long = (n: number) => `TG-1042 ${'x'.repeat(n - 8)}`;

  it(`camt: Ustrd is cut to ${MAX_REMITTANCE_LINE_CHARS} characters with a warning; a 2 MB remittance text is not stored`, async () => {
    const huge = long(2 * 1024 * 1024);
    const s = await parse(camt([{ ...LINES[0]!, description: huge }, ...LINES.slice(1)]), 'camt053');
    expect(s.lines[0]!.description).toBe(huge.slice(0, MAX_REMITTANCE_LINE_CHARS));
    expect(s.warnings).toEqual([
      { at: 'entry 1', message: `Ustrd of ${huge.length} characters cut to ${MAX_REMITTANCE_LINE_CHARS}` },
    ]);
    // Characters, not UTF-16 units: 200 Turkish letters with one astral one are cut whole.
    const letters = `TG-7 ${'ğ'.repeat(134)}😀${'ş'.repeat(60)}`;
    const t = await parse(camt([{ ...LINES[0]!, description: letters }]), 'camt053');
    expect(Array.from(t.lines[0]!.description)).toHaveLength(MAX_REMITTANCE_LINE_CHARS);
    expect(t.lines[0]!.description.endsWith('😀')).toBe(true);
    expect((await parse(camt(LINES), 'camt053')).warnings).toEqual([]);
  });

  it('a name is cut; a reference or an IBAN longer than its standard allows is refused', async () => {
    const name = 'Ş'.repeat(299);
    const s = await parse(camt([{ ...LINES[0]!, name }]), 'camt053');
    expect(s.lines[0]!.counterpartyName).toHaveLength(MAX_COUNTERPARTY_NAME_CHARS);
    expect(s.warnings[0]!.message).toMatch(/counterparty's name of 299 characters cut to 140/);
    const ref = 'R'.repeat(MAX_BANK_REFERENCE_CHARS + 1);
    expect((await refusal(parse(camt([{ ...LINES[0]!, ref }]), 'camt053'))).problems[0]).toMatchObject({
      at: 'entry 1',
      message: expect.stringContaining('bank reference longer than 35') as string,
    });
    expect(
      (await refusal(parse(camt([{ ...LINES[0]!, iban: `TR${'1'.repeat(40)}` }]), 'camt053'))).problems[0]!.message,
    ).toMatch(/IBAN longer than 34/);
  });

  it('MT940 :86: and CSV descriptions are bounded too; the warnings name the line or row', async () => {
    const text = long(5_000);
    const m = await parse(mt940([{ ...LINES[0]!, description: text }]), 'mt940');
    expect(m.lines[0]!.description.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
    expect(m.warnings[0]).toEqual({
      at: 'line 7',
      message: expect.stringMatching(/^:86: of \d+ characters cut to 395$/) as string,
    });
    const c = await parse(garantiCsv([{ ...LINES[0]!, description: long(100_000) }]), 'csv', 'garanti-bbva');
    expect(c.lines[0]!.description).toHaveLength(MAX_DESCRIPTION_CHARS);
    expect(c.warnings).toEqual([
      { at: 'row 5', message: `the description of 100012 characters cut to ${MAX_DESCRIPTION_CHARS}` },
    ]);
  });

  it('a problem quoting the file is bounded too', async () => {
    const e = await refusal(parse(mt940(LINES).replace('C1500,00', `C15O0,00${'9'.repeat(100_000)}`), 'mt940'));
    expect(e.problems[0]!.message.length).toBeLessThanOrEqual(301);
  });
});

describe('a large statement', () => {
  it('20,000 entries without any "&" are screened in one pass (no rescan of the file per element)', () => {
    const many: SyntheticLine[] = Array.from({ length: 20_000 }, (_, i) => ({
      ref: `BIG${i}`,
      day: '2026-11-23',
      direction: 'credit',
      amountKurus: BigInt(100 + i),
      description: `TG-${i} havale`,
      name: 'Ayşe Yılmaz',
    }));
    const text = camt(many);
    const started = Date.now();
    expect(screenXml(text)).toBeUndefined();
    // Linear, about a second on a busy machine; rescanning the rest of the file per element, many minutes.
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 90_000);
});
