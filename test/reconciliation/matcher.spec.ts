import { Matcher, type DepositForMatching } from '../../services/ledger/src/reconciliation/matching/matcher.js';
import { nameScore, nameTokens } from '../../services/ledger/src/reconciliation/matching/names.js';
import {
  WithdrawalMatcher,
  type WithdrawalForMatching,
} from '../../services/ledger/src/reconciliation/matching/withdrawal-matcher.js';
import { findReferences } from '../../services/ledger/src/reconciliation/matching/references.js';
import { generateDay, scoreDay } from '../../bench/reconciliation-day.mjs';

const T0 = Date.parse('2026-11-23T09:00:00Z');
const dep = (
  number: number,
  amountKurus: bigint,
  name: string,
  extra: Partial<DepositForMatching> = {},
): DepositForMatching => ({
  transactionId: `00000000-0000-4000-8000-${String(number).padStart(12, '0')}`,
  number,
  state: 'awaiting_payment',
  amountKurus,
  names: [name],
  createdAtMs: T0,
  expiresAtMs: T0 + 30 * 60_000,
  matched: false,
  ...extra,
});
const line = (description: string, amountKurus: bigint, counterpartyName?: string, minutes = 5) => ({
  lineId: `l-${description}`,
  direction: 'credit' as const,
  amountKurus,
  bookedOn: '2026-11-23',
  bookedAt: new Date(T0 + minutes * 60_000).toISOString(),
  description,
  ...(counterpartyName ? { counterpartyName } : {}),
});

describe('references in odd spellings', () => {
  it.each([
    ['TG-1042', [1042]],
    ['tg 1042', [1042]],
    ['TG1042', [1042]],
    ['T G - 1042', [1042]],
    ['Tğ1042', [1042]],
    ['tg_1042 ödeme', [1042]],
    ['(TG#1042)', [1042]],
    ['ödeme TG-0001042', [1042]],
    ['TĞ-1042 TG 7', [1042, 7]],
  ])('%s', (text, expected) => {
    expect(findReferences(text)).toEqual(expected);
  });

  it.each(['ETG 1042', 'BTG1042', 'TGX1042', 'SATG 12', 'TG-', ''])('no reference in %s', (text) => {
    expect(findReferences(text)).toEqual([]);
  });

  it('a pasted list of references is no reference', () => {
    expect(findReferences('TG-1 TG-2 TG-3 TG-4')).toEqual([]);
  });
});

describe('names: case, Turkish letters, word order, initials', () => {
  const s = (a: string, b: string) => nameScore(nameTokens(a), nameTokens(b));
  it('scores', () => {
    expect(s('Ayşe Yılmaz', 'YILMAZ AYŞE')).toBe(1);
    expect(s('ibrahim isik', 'İBRAHİM IŞIK')).toBe(1);
    expect(s('A. Yılmaz', 'Ayşe Yılmaz')).toBe(0.9);
    expect(s('Ayşe Nur Yılmaz', 'Ayşe Yılmaz')).toBe(0.9);
    expect(s('Hasan Demir', 'Ayşe Yılmaz')).toBe(0);
    expect(s('Ayşe Demir', 'Ayşe Yılmaz')).toBe(0.5);
    expect(s('', 'Ayşe Yılmaz')).toBe(0);
  });
});

describe('matching', () => {
  it('a reference with the exact amount and a compatible name is strong; differences are not', () => {
    const m = new Matcher([
      dep(1, 15000n, 'Ayşe Yılmaz'),
      dep(2, 20000n, 'Ayşe Yılmaz'),
      dep(3, 30000n, 'Ali Veli'),
      dep(4, 40000n, 'Can Ak', { state: 'expired' }),
    ]);
    const weak = (a: ReturnType<typeof m.assess>) => [a.strong?.number ?? 'none', ...a.differences];
    expect(m.assess(line('tğ 1', 15000n, 'YILMAZ AYŞE')).strong?.number).toBe(1);
    expect(weak(m.assess(line('TG-2', 19999n, 'Ayşe Yılmaz')))).toEqual(['none', 'paid_less']);
    expect(weak(m.assess(line('TG-3', 30000n, 'Hasan Demir')))).toEqual(['none', 'third_party']);
    expect(weak(m.assess(line('TG-4', 40000n, 'Can Ak')))).toEqual(['none', 'paid_after_expiry']);
    // Deposit 1 is given to the first line: the next naming it is a double payment.
    expect(weak(m.assess(line('TG 1', 15000n, 'Ayşe Yılmaz')))).toEqual(['none', 'paid_twice']);
    expect(m.assess(line('kira', 123n))).toMatchObject({ candidates: [], differences: ['unknown_credit'] });
  });

  it('without a reference: strong only for exactly one same-amount deposit with the name, in the window', () => {
    const m = new Matcher([
      dep(10, 77777n, 'Mehmet Ali Kaya'),
      dep(11, 50000n, 'Ayşe Yılmaz'),
      dep(12, 50000n, 'Ayşe Yılmaz'),
      dep(13, 60000n, 'Zeynep Çelik'),
      dep(14, 60000n, 'Fatma Şahin'),
    ]);
    expect(m.assess(line('havale', 77777n, 'KAYA MEHMET ALI')).strong?.number).toBe(10);
    expect(m.assess(line('havale', 50000n, 'Ayşe Yılmaz')).strong).toBeUndefined(); // two such deposits
    expect(m.assess(line('Zeynep Çelik kira', 60000n)).strong?.number).toBe(13); // name in the description
    expect(m.assess(line('havale', 60000n, 'Fatma Şahin', 60 * 24 * 5)).candidates).toEqual([]); // days too late
    const named = m.assess(line('havale', 59999n, 'Şahin Fatma'));
    expect(named.candidates[0]).toMatchObject({ number: 14, differences: ['paid_less'], strong: false });
  });

  it('a generated day with known truth: automatic matches have precision 1.0', () => {
    const day = generateDay({ deposits: 3_000, seed: 7 });
    const result = scoreDay(day, Matcher);
    expect(result.wrongStrong).toEqual([]);
    expect(result.precision).toBe(1);
    expect(result.recall).toBeGreaterThan(0.6);
  });
});

describe('debit lines against approved withdrawals', () => {
  const w = (number: number, amountKurus: bigint, iban: string): WithdrawalForMatching => ({
    transactionId: `00000000-0000-4000-9000-${String(number).padStart(12, '0')}`,
    number,
    amountKurus,
    iban,
    name: 'Ayşe Yılmaz',
    approvedAtMs: T0,
    matched: false,
  });
  const IBAN_A = 'TR330006100519786457841326';
  const IBAN_B = 'TR120006200000000000000001';
  const debit = (description: string, amountKurus: bigint, counterpartyIban?: string) => ({
    ...line(description, amountKurus),
    direction: 'debit' as const,
    ...(counterpartyIban ? { counterpartyIban } : {}),
  });

  it('links by the payment file reference or by amount + beneficiary IBAN when unique', () => {
    const m = new WithdrawalMatcher([w(5, 10050n, IBAN_A), w(6, 20000n, IBAN_B), w(7, 20000n, IBAN_B)]);
    expect(m.assess(debit('TG-5 X', 10050n, IBAN_A)).strong?.number).toBe(5);
    expect(m.assess(debit('TG-5 X', 10050n, IBAN_A))).toMatchObject({ differences: ['paid_twice'] });
    expect(m.assess(debit('EFT', 20000n, IBAN_B)).strong).toBeUndefined(); // two such withdrawals
    expect(m.assess(debit('TG-6', 20000n, IBAN_A))).toMatchObject({ differences: ['third_party'] });
    expect(m.assess(debit('masraf', 550n))).toMatchObject({ candidates: [], differences: [] });
  });
});
