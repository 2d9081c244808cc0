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

  it("keeps the bank and the time the customer gave, and folds them into the deposit's view", () => {
    const given = givenTransaction(...depositIn('awaiting_payment'));
    const told = { ...report, senderBank: ' Türkiye İş Bankası ', transferredAt: '2026-12-07T14:05:00+03:00' };
    const answer = then(decideReportPayment(told, given));
    const event = domainEvent('PaymentReported', {
      transactionId: DEPOSIT_ID,
      senderBank: 'Türkiye İş Bankası',
      transferredAt: '2026-12-07T14:05:00+03:00',
    });
    expect(answer).toEqual({
      writes: [{ streamId: STREAMS.transaction(DEPOSIT_ID), expectedVersion: 1, events: [event] }],
    });
    expect(givenTransaction(...depositIn('awaiting_payment'), event).view.paymentReport).toEqual({
      senderBank: 'Türkiye İş Bankası',
      transferredAt: '2026-12-07T14:05:00+03:00',
    });
  });

  it('an event without the fields (as every earlier one) still folds: reported, nothing told', () => {
    const old = givenTransaction(...depositIn('payment_reported'));
    expect(old.view.state).toBe('payment_reported');
    expect(old.view.paymentReport).toBeUndefined();
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
