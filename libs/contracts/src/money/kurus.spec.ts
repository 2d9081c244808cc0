import {
  AmountSchema,
  MAX_AMOUNT_KURUS,
  commissionKurus,
  kurusFrom,
  kurusToDecimalString,
  kurusToNumber,
  parseAmount,
  percentToBasisPoints,
  roundForHash,
} from './kurus.js';

describe('parseAmount', () => {
  it.each([
    [250, 25_000n],
    ['250', 25_000n],
    ['250.00', 25_000n],
    ['0.01', 1n],
    [250.5, 25_050n],
    ['250.5', 25_050n],
    [' 250.50 ', 25_050n],
    [0.1, 10n],
    ['1000000000000', MAX_AMOUNT_KURUS],
  ])('accepts %p as %p kuruş', (input, kurus) => {
    const parsed = parseAmount(input);
    expect(parsed).toEqual({ ok: true, kurus, text: expect.any(String) });
  });

  it('keeps the amount as sent in text', () => {
    expect(parseAmount(250.5)).toEqual({ ok: true, kurus: 25_050n, text: '250.5' });
    expect(parseAmount('250.00')).toEqual({ ok: true, kurus: 25_000n, text: '250.00' });
  });

  it.each([
    [0, 'not_positive'],
    ['0', 'not_positive'],
    ['0.00', 'not_positive'],
    [-1, 'not_positive'],
    ['-1', 'not_positive'],
    [NaN, 'not_a_number'],
    [Infinity, 'not_a_number'],
    [-Infinity, 'not_a_number'],
    ['1.234', 'too_many_decimals'],
    [1.234, 'too_many_decimals'],
    ['abc', 'not_a_number'],
    ['', 'not_a_number'],
    ['   ', 'not_a_number'],
    [null, 'not_a_number'],
    [undefined, 'not_a_number'],
    [{}, 'not_a_number'],
    [[250], 'not_a_number'],
    [true, 'not_a_number'],
    ['1e3', 'not_a_number'],
    [1e21, 'not_a_number'],
    ['0x10', 'not_a_number'],
    ['1,50', 'not_a_number'],
    ['.5', 'not_a_number'],
    ['5.', 'not_a_number'],
    ['10000000000000', 'too_large'],
    [10_000_000_000_000, 'too_large'],
    ['1000000000000.01', 'too_large'],
  ])('rejects %p (%s)', (input, reason) => {
    expect(parseAmount(input)).toEqual({ ok: false, reason });
  });
});

describe('AmountSchema', () => {
  it('turns numbers and numeric strings into kuruş', () => {
    expect(AmountSchema.parse(250)).toBe(25_000n);
    expect(AmountSchema.parse('250.00')).toBe(25_000n);
  });

  it('rejects bad amounts with a readable issue', () => {
    const result = AmountSchema.safeParse('1.234');
    expect(result.success).toBe(false);
    // The field is named by whoever reports the issue (parseBody), not by the issue again.
    expect(result.error?.issues[0]?.message).toBe('has more than 2 decimals');
    expect(AmountSchema.safeParse(0).success).toBe(false);
    expect(AmountSchema.safeParse(null).success).toBe(false);
  });
});

describe('kurusFrom', () => {
  it('parses trusted amounts and throws on bad ones', () => {
    expect(kurusFrom('12.34')).toBe(1_234n);
    expect(() => kurusFrom('12.345')).toThrow(RangeError);
    expect(() => kurusFrom(0)).toThrow(RangeError);
  });
});

describe('kurus rendering', () => {
  it('renders numbers and fixed decimal strings', () => {
    expect(kurusToNumber(25_050n)).toBe(250.5);
    expect(kurusToNumber(1n)).toBe(0.01);
    expect(kurusToDecimalString(25_050n)).toBe('250.50');
    expect(kurusToDecimalString(5n)).toBe('0.05');
    expect(kurusToDecimalString(25_000n)).toBe('250.00');
    expect(kurusToDecimalString(-150n)).toBe('-1.50');
  });

  it.each([1n, 10n, 99n, 100n, 101n, 25_050n, 123_456_789n, 999_999_999_999n, MAX_AMOUNT_KURUS])(
    'round-trips %p kuruş through number and decimal string',
    (kurus) => {
      expect(kurusFrom(kurusToNumber(kurus))).toBe(kurus);
      expect(kurusFrom(kurusToDecimalString(kurus))).toBe(kurus);
    },
  );
});

describe('roundForHash (round half up)', () => {
  it.each([
    ['10.5', 11n],
    ['10.49', 10n],
    ['10.50', 11n],
    ['10.51', 11n],
    ['0.5', 1n],
    ['0.49', 0n],
    ['250', 250n],
    ['250.50', 251n],
    ['250.49', 250n],
    ['999.99', 1_000n],
  ])('round(%s) = %p', (amount, rounded) => {
    expect(roundForHash(kurusFrom(amount))).toBe(rounded);
  });
});

describe('commissionKurus', () => {
  it('takes 1.5 % of 1000.00 TRY as 1500 kuruş', () => {
    expect(commissionKurus(kurusFrom('1000.00'), 150)).toBe(1_500n);
  });

  it('rounds half up', () => {
    // 1.5 % of 1.00 TRY = 1.5 kuruş → 2; 1.5 % of 0.33 TRY = 0.495 kuruş → 0.
    expect(commissionKurus(100n, 150)).toBe(2n);
    expect(commissionKurus(33n, 150)).toBe(0n);
    // 2.5 % of 0.99 TRY = 2.475 kuruş → 2; of 1.01 TRY = 2.525 → 3.
    expect(commissionKurus(99n, 250)).toBe(2n);
    expect(commissionKurus(101n, 250)).toBe(3n);
  });

  it('handles 0 % and 100 %', () => {
    expect(commissionKurus(12_345n, 0)).toBe(0n);
    expect(commissionKurus(12_345n, 10_000)).toBe(12_345n);
  });

  it.each([-1, 10_001, 1.5, NaN])('refuses %p basis points', (bp) => {
    expect(() => commissionKurus(100n, bp)).toThrow(RangeError);
  });
});

describe('percentToBasisPoints', () => {
  it.each([
    [1.5, 150],
    [0, 0],
    [100, 10_000],
    [2.25, 225],
    [0.01, 1],
    [0.07, 7],
  ])('%p %% = %p bp', (percent, bp) => {
    expect(percentToBasisPoints(percent)).toBe(bp);
  });

  it.each([1.234, 1.005, -1, 100.01, NaN, Infinity])('refuses %p', (percent) => {
    expect(() => percentToBasisPoints(percent)).toThrow(RangeError);
  });
});
