import { domainEvent, STREAMS } from '@transfergate/contracts';
import { decideRecordWebhookAmountMismatch } from './record-webhook-amount-mismatch.decide.js';
import { DEPOSIT_ID, depositIn, givenTransaction } from './testing/given-when-then.js';

const webhook = { source: 'webhook' } as const;
const mismatch = { transactionId: DEPOSIT_ID, paidAmountKurus: '9000', actor: webhook };

describe('decideRecordWebhookAmountMismatch', () => {
  it.each(['awaiting_payment', 'payment_reported'] as const)(
    'records a differing amount on a deposit in %s',
    (state) => {
      const given = givenTransaction(...depositIn(state));
      expect(decideRecordWebhookAmountMismatch(mismatch, given, { recordedAlready: false })).toEqual([
        {
          streamId: STREAMS.transaction(DEPOSIT_ID),
          expectedVersion: given.version,
          events: [
            domainEvent('WebhookAmountMismatched', {
              transactionId: DEPOSIT_ID,
              amountKurus: '10000',
              paidAmountKurus: '9000',
              by: { source: 'webhook' },
            }),
          ],
        },
      ]);
    },
  );

  it("records nothing for the same amount again (an upstream's retry)", () => {
    const given = givenTransaction(...depositIn('awaiting_payment'));
    expect(decideRecordWebhookAmountMismatch(mismatch, given, { recordedAlready: true })).toEqual([]);
  });

  it.each(['approved', 'rejected', 'expired'] as const)('records nothing once the deposit is %s', (state) => {
    const given = givenTransaction(...depositIn(state));
    expect(decideRecordWebhookAmountMismatch(mismatch, given, { recordedAlready: false })).toEqual([]);
  });
});
