import { CallerBudget, type CallerBudgetLimits } from './caller-budget.js';

const LIMITS: CallerBudgetLimits = {
  verifiedPerKey: 3,
  failuresPerIp: 4,
  failuresPerKey: 5,
  windowMs: 60_000,
  maxTracked: 1_000,
};

describe('caller budgets', () => {
  const T0 = 1_000_000;

  it('charges a key only for verified requests, whatever others send naming it', () => {
    const budget = new CallerBudget(() => LIMITS);
    for (let i = 0; i < 50; i++) budget.failedRequest('ak', `10.0.${i}.1`, T0);
    // Key failures passed their limit, but the merchant's address has none: its quota is whole.
    for (let i = 0; i < LIMITS.verifiedPerKey; i++)
      expect(budget.verifiedRequest('ak', '192.0.2.1', T0)).toBeUndefined();
    expect(budget.verifiedRequest('ak', '192.0.2.1', T0)).toMatchObject({ retryAfterSeconds: 60 });
    // A new window, a new quota.
    expect(budget.verifiedRequest('ak', '192.0.2.1', T0 + 60_000)).toBeUndefined();
  });

  it('refuses an address past its failures before any check, whatever key it names', () => {
    const budget = new CallerBudget(() => LIMITS);
    const answers = Array.from({ length: 6 }, (_, i) => budget.failedRequest(`invented-${i}`, '198.51.100.7', T0));
    expect(answers.map((a) => a !== undefined)).toEqual([false, false, false, false, true, true]);
    expect(budget.beforeVerification('198.51.100.7', T0 + 30_000)).toMatchObject({ retryAfterSeconds: 30 });
    expect(budget.beforeVerification('198.51.100.8', T0)).toBeUndefined();
    expect(budget.beforeVerification('198.51.100.7', T0 + 60_000)).toBeUndefined();
  });

  it('locks a guessed key against the addresses that failed on it, not against others', () => {
    const budget = new CallerBudget(() => LIMITS);
    for (let i = 0; i < LIMITS.failuresPerKey; i++) budget.failedRequest('ak', `203.0.113.${i}`, T0);
    expect(budget.verifiedRequest('ak', '203.0.113.0', T0)).toMatchObject({
      message: expect.stringContaining('failed authentications for this API key'),
    });
    expect(budget.verifiedRequest('ak', '192.0.2.1', T0)).toBeUndefined();
  });

  it('keeps at most maxTracked windows per budget', () => {
    const budget = new CallerBudget(() => ({ ...LIMITS, maxTracked: 10 }));
    for (let i = 0; i < 1_000; i++) budget.failedRequest(`k${i}`, `10.1.${i >> 8}.${i & 255}`, T0);
    const sizes = Object.values(budget as unknown as Record<string, { windows?: Map<string, unknown> }>)
      .map((counter) => counter.windows?.size)
      .filter((size): size is number => size !== undefined);
    expect(sizes).toHaveLength(4);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(10);
  });
});
