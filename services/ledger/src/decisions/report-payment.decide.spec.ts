import { domainEvent, STREAMS } from '@transfergate/contracts';
import { decideReportPayment } from './report-payment.decide.js';
import { DEPOSIT_ID, OPERATOR, depositIn, givenTransaction, then, withdrawalIn } from './testing/given-when-then.js';

const report = { transactionId: DEPOSIT_ID, actor: OPERATOR };

describe('decideReportPayment', () => {
  it('marks a deposit awaiting payment as reported', () => {
    const given = givenTransaction(...depositIn('awaiting_payment'));
    expect(then(decideReportPayment(report, given))).toEqual({
      writes: [
        {
          streamId: STREAMS.transaction(DEPOSIT_ID),
          expectedVersion: 1,
          events: [domainEvent('PaymentReported', { transactionId: DEPOSIT_ID })],
        },
      ],
    });
  });

  it.each([
    ['payment_reported', 'invalid_state_transition'],
    ['expired', 'invalid_state_transition'],
    ['approved', 'transaction_final'],
    ['rejected', 'transaction_final'],
  ] as const)('refuses a deposit in %s (%s)', (state, code) => {
    expect(then(decideReportPayment(report, givenTransaction(...depositIn(state))))).toEqual({ refused: code });
  });

  it('refuses a withdrawal: only deposits are paid by the customer', () => {
    expect(then(decideReportPayment(report, givenTransaction(...withdrawalIn('pending'))))).toEqual({
      refused: 'invalid_state_transition',
    });
  });
});
