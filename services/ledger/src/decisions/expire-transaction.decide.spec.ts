import { domainEvent, STREAMS } from '@transfergate/contracts';
import { decideExpire } from './expire-transaction.decide.js';
import {
  DEPOSIT_ID,
  WITHDRAWAL_ID,
  depositIn,
  depositRequested,
  givenTransaction,
  then,
  withdrawalIn,
} from './testing/given-when-then.js';

// The deposit fixture expires at 10:00:00.000 UTC.
const at = (iso: string) => ({ transactionId: DEPOSIT_ID, now: new Date(iso) });

describe('decideExpire', () => {
  it.each(['awaiting_payment', 'payment_reported'] as const)('expires a deposit in %s at its expiry time', (state) => {
    const given = givenTransaction(...depositIn(state));
    expect(then(decideExpire(at('2026-01-01T10:00:00.000Z'), given))).toEqual({
      writes: [
        {
          streamId: STREAMS.transaction(DEPOSIT_ID),
          expectedVersion: given.version,
          events: [domainEvent('TransactionExpired', { transactionId: DEPOSIT_ID })],
        },
      ],
    });
  });

  it('refuses a deposit one millisecond before its expiry time', () => {
    const given = givenTransaction(...depositIn('awaiting_payment'));
    expect(then(decideExpire(at('2026-01-01T09:59:59.999Z'), given))).toEqual({ refused: 'invalid_state_transition' });
  });

  it('follows the expiry time the deposit was issued with', () => {
    const given = givenTransaction(depositRequested('10000', '2026-01-02T00:00:00.000Z'));
    expect(then(decideExpire(at('2026-01-01T12:00:00.000Z'), given))).toEqual({ refused: 'invalid_state_transition' });
    expect(then(decideExpire(at('2026-01-02T00:00:00.000Z'), given))).toMatchObject({ writes: [{}] });
  });

  it.each([
    ['expired', 'invalid_state_transition'],
    ['approved', 'transaction_final'],
    ['rejected', 'transaction_final'],
  ] as const)('leaves a deposit in %s alone (%s)', (state, code) => {
    expect(then(decideExpire(at('2026-01-02T00:00:00.000Z'), givenTransaction(...depositIn(state))))).toEqual({
      refused: code,
    });
  });

  it('never expires a withdrawal', () => {
    const given = givenTransaction(...withdrawalIn('pending'));
    expect(then(decideExpire({ transactionId: WITHDRAWAL_ID, now: new Date('2030-01-01') }, given))).toEqual({
      refused: 'invalid_state_transition',
    });
  });
});
