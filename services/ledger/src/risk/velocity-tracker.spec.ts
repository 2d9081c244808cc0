import { MAX_REQUESTS_PER_CUSTOMER, VELOCITY_WINDOW_MS, VelocityTracker } from './velocity-tracker.js';

const NOW = Date.parse('2026-03-02T12:00:00.000Z');

describe('VelocityTracker', () => {
  it('keeps a day of deposits in time order with their sum, dropping older ones as new ones come', () => {
    const tracker = new VelocityTracker();
    tracker.note('c', 'deposit', NOW - VELOCITY_WINDOW_MS - 1, 500n);
    tracker.note('c', 'deposit', NOW - 1_000, 300n);
    tracker.note('c', 'deposit', NOW - 2_000, 200n); // arrives late: kept in order
    tracker.note('c', 'deposit', NOW, 100n);
    const activity = tracker.activity('c')!;
    expect(activity.deposits.map((d) => d.amountKurus)).toEqual([200n, 300n, 100n]);
    expect(activity.depositsKurus).toBe(600n);
    expect(activity.deposited).toBe(true);
  });

  it('keeps at most MAX_REQUESTS_PER_CUSTOMER per kind, the sum following', () => {
    const tracker = new VelocityTracker();
    for (let i = 0; i < MAX_REQUESTS_PER_CUSTOMER + 10; i++) tracker.note('c', 'deposit', NOW + i, 1n);
    for (let i = 0; i < MAX_REQUESTS_PER_CUSTOMER + 10; i++) tracker.note('c', 'withdrawal', NOW + i, 1n);
    const activity = tracker.activity('c')!;
    expect(activity.deposits).toHaveLength(MAX_REQUESTS_PER_CUSTOMER);
    expect(activity.depositsKurus).toBe(BigInt(MAX_REQUESTS_PER_CUSTOMER));
    expect(activity.withdrawalsAtMs).toHaveLength(MAX_REQUESTS_PER_CUSTOMER);
  });

  it('forgets the customer seen longest ago past its bound', () => {
    const tracker = new VelocityTracker(2);
    tracker.note('a', 'deposit', NOW, 1n);
    tracker.note('b', 'deposit', NOW, 1n);
    tracker.note('a', 'deposit', NOW + 1, 1n); // seen again: now the newest
    tracker.markDeposited('c');
    expect(tracker.size).toBe(2);
    expect(tracker.activity('b')).toBeUndefined();
    expect(tracker.activity('a')?.deposits).toHaveLength(2);
    expect(tracker.activity('c')?.deposited).toBe(true);
  });
});
