import { DEPOSIT_STATES, WITHDRAWAL_STATES } from '@transfergate/contracts';
import { countsTowardDailyVolume, dailyVolumeShareKurus, isFinal } from './transaction-states.js';

describe('isFinal', () => {
  it('is true for approved and rejected only: an expired deposit can still be approved or rejected', () => {
    const states = [...new Set([...DEPOSIT_STATES, ...WITHDRAWAL_STATES])];
    expect(states.filter(isFinal).sort()).toEqual(['approved', 'rejected']);
  });
});

describe('daily volume of a receiving account', () => {
  it('counts a deposit from its request through approval (held by a risk rule too); rejected and expired give it back', () => {
    expect(DEPOSIT_STATES.filter(countsTowardDailyVolume)).toEqual([
      'awaiting_payment',
      'payment_reported',
      'held',
      'approved',
    ]);
  });

  it('counts the current amount while it counts, nothing once released', () => {
    expect(dailyVolumeShareKurus({ state: 'awaiting_payment', amountKurus: '12345' })).toBe(12_345n);
    expect(dailyVolumeShareKurus({ state: 'approved', amountKurus: '90000000000000001' })).toBe(
      90_000_000_000_000_001n,
    );
    expect(dailyVolumeShareKurus({ state: 'expired', amountKurus: '12345' })).toBe(0n);
    expect(dailyVolumeShareKurus({ state: 'rejected', amountKurus: '12345' })).toBe(0n);
  });
});
