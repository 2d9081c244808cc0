import { parseTurkishAmountKurus } from './turkish-amount.js';

describe('parseTurkishAmountKurus', () => {
  it.each([
    ['45000', 4_500_000n],
    ['45.000', 4_500_000n],
    ['45000,00', 4_500_000n],
    ['45.000,00', 4_500_000n],
    ['45 000', 4_500_000n],
    ['₺45.000,50', 4_500_050n],
    ['45000 TL', 4_500_000n],
    ['45000.5', 4_500_050n],
    ['1.250,5', 125_050n],
    ['1.234.567', 123_456_700n],
  ])('%s is %s kuruş', (text, kurus) => {
    expect(parseTurkishAmountKurus(text)).toBe(kurus);
  });

  it.each(['ozturk', 'TG-18', '4.50.0', '45,000,00', '0', '0,00', '12,345', '', '1e5', '-5', '12345678901234'])(
    '%s is not an amount',
    (text) => {
      expect(parseTurkishAmountKurus(text)).toBeNull();
    },
  );
});
