import { accountTakes, accountTakesAmount, bankRank, withinDailyLimit } from './receiving-account.decide.js';
import { bankAccountRecord } from './testing/given-when-then.js';

// 10.00 to 5,000.00 TRY a deposit, 20,000.00 TRY a day.
const account = bankAccountRecord({ minAmountKurus: '1000', maxAmountKurus: '500000', dailyLimitKurus: '2000000' });

describe('the receiving account a deposit is told to pay into', () => {
  it('takes amounts within its per-transaction range, both ends included', () => {
    expect([999n, 1_000n, 500_000n, 500_001n].map((amount) => accountTakesAmount(account, amount))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it("takes a deposit while the day's issued volume plus the amount stays within the daily limit", () => {
    expect(withinDailyLimit(account, 0n, 500_000n)).toBe(true);
    expect(withinDailyLimit(account, 1_500_000n, 500_000n)).toBe(true); // exactly the limit
    expect(withinDailyLimit(account, 1_500_001n, 500_000n)).toBe(false);
    expect(withinDailyLimit(account, 2_000_000n, 1_000n)).toBe(false); // the day is full
  });

  it('refuses by either rule', () => {
    expect(accountTakes(account, 0n, 600_000n)).toBe(false); // out of range, however empty the day
    expect(accountTakes(account, 1_999_000n, 10_000n)).toBe(false); // in range, over the day
    expect(accountTakes(account, 1_990_000n, 10_000n)).toBe(true);
  });

  it("ranks the customer's own bank first, any other bank next, and all alike when none is preferred", () => {
    expect(bankRank(account, '00010')).toBe(2);
    expect(bankRank(account, '00062')).toBe(1);
    expect(bankRank(account, undefined)).toBe(0);
    expect(bankRank({ ...account, bankCode: undefined }, '00010')).toBe(0);
  });
});
