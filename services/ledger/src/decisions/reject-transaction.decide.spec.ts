import { domainEvent, STREAMS } from '@transfergate/contracts';
import { decideReject, rejectReasonOf } from './reject-transaction.decide.js';
import {
  DEPOSIT_ID,
  MERCHANT_ID,
  OPERATOR,
  WITHDRAWAL_ID,
  depositIn,
  givenTransaction,
  then,
  withdrawalIn,
} from './testing/given-when-then.js';

const by = { source: 'panel', operatorId: 'op-1' };
const reject = (transactionId: string, reason = '  no payment arrived  ') => ({
  transactionId,
  reason,
  actor: OPERATOR,
});

describe('decideReject', () => {
  it.each(['awaiting_payment', 'payment_reported', 'expired'] as const)(
    'rejects a deposit in %s with the trimmed reason and posts nothing',
    (state) => {
      const given = givenTransaction(...depositIn(state));
      expect(then(decideReject(reject(DEPOSIT_ID), given))).toEqual({
        writes: [
          {
            streamId: STREAMS.transaction(DEPOSIT_ID),
            expectedVersion: given.version,
            events: [
              domainEvent('TransactionRejected', {
                transactionId: DEPOSIT_ID,
                reason: 'no payment arrived',
                fromState: state,
                by,
              }),
            ],
          },
        ],
      });
    },
  );

  it.each(['pending', 'processing'] as const)('rejects a withdrawal in %s and voids its reservation', (state) => {
    const given = givenTransaction(...withdrawalIn(state));
    expect(then(decideReject(reject(WITHDRAWAL_ID), given))).toEqual({
      writes: [
        {
          streamId: STREAMS.transaction(WITHDRAWAL_ID),
          expectedVersion: given.version,
          events: [
            domainEvent('TransactionRejected', {
              transactionId: WITHDRAWAL_ID,
              reason: 'no payment arrived',
              fromState: state,
              by,
            }),
          ],
        },
        {
          streamId: STREAMS.merchantLedger(MERCHANT_ID),
          expectedVersion: 'any',
          events: [domainEvent('ReservationVoided', { transactionId: WITHDRAWAL_ID, merchantId: MERCHANT_ID })],
        },
      ],
    });
  });

  it.each([
    ['deposit', depositIn('approved')],
    ['deposit', depositIn('rejected')],
    ['withdrawal', withdrawalIn('approved')],
    ['withdrawal', withdrawalIn('rejected')],
  ])('refuses a final %s', (_type, events) => {
    const given = givenTransaction(...events);
    expect(then(decideReject(reject(given.view.transactionId), given))).toEqual({ refused: 'transaction_final' });
  });

  it.each(['', '   ', 'x'.repeat(501)])('refuses a missing or too long reason (%#)', (reason) => {
    expect(rejectReasonOf(reject(DEPOSIT_ID, reason))).toMatchObject({ errorCode: 'validation_failed' });
    const given = givenTransaction(...depositIn('awaiting_payment'));
    expect(then(decideReject(reject(DEPOSIT_ID, reason), given))).toEqual({ refused: 'validation_failed' });
  });

  it('keeps a reason of exactly 500 characters', () => {
    expect(rejectReasonOf(reject(DEPOSIT_ID, 'x'.repeat(500)))).toBe('x'.repeat(500));
  });
});
