import { ACCOUNTS, domainEvent, STREAMS } from '@transfergate/contracts';
import { withdrawalTransfers } from '../domain/merchant-ledger.js';
import { changeAmountInputRefusal, decideChangeAmount } from './change-amount.decide.js';
import {
  DEPOSIT_ID,
  MERCHANT_ID,
  OPERATOR,
  WITHDRAWAL_ID,
  depositIn,
  givenLedger,
  givenTransaction,
  merchantRecord,
  refusalOf,
  then,
  withdrawalIn,
} from './testing/given-when-then.js';

const by = { source: 'panel', operatorId: 'op-1' };
const change = (transactionId: string, amountKurus: bigint) => ({ transactionId, amountKurus, actor: OPERATOR });
const noContext = { merchant: undefined, ledger: undefined };

describe('decideChangeAmount', () => {
  describe('a deposit', () => {
    it.each(['awaiting_payment', 'payment_reported', 'expired'] as const)(
      'in %s takes the new amount with no fee and touches no ledger',
      (state) => {
        const given = givenTransaction(...depositIn(state));
        expect(then(decideChangeAmount(change(DEPOSIT_ID, 12_345n), given, noContext))).toEqual({
          writes: [
            {
              streamId: STREAMS.transaction(DEPOSIT_ID),
              expectedVersion: given.version,
              events: [
                domainEvent('TransactionAmountChanged', {
                  transactionId: DEPOSIT_ID,
                  fromKurus: '10000',
                  toKurus: '12345',
                  feeKurus: '0',
                  by,
                }),
              ],
            },
          ],
        });
      },
    );

    it.each(['approved', 'rejected'] as const)('%s is final', (state) => {
      const given = givenTransaction(...depositIn(state));
      expect(then(decideChangeAmount(change(DEPOSIT_ID, 5_000n), given, noContext))).toEqual({
        refused: 'transaction_final',
      });
    });

    it.each([0n, -1n])('refuses an amount of %s kuruş before anything else', (amount) => {
      expect(changeAmountInputRefusal(change(DEPOSIT_ID, amount))?.errorCode).toBe('invalid_amount');
      const given = givenTransaction(...depositIn('approved'));
      expect(then(decideChangeAmount(change(DEPOSIT_ID, amount), given, noContext))).toEqual({
        refused: 'invalid_amount',
      });
    });
  });

  describe("the merchant's range", () => {
    // 10.00 to 5,000.00 TRY.
    const ranged = merchantRecord({ minAmountKurus: '1000', maxAmountKurus: '500000' });

    it.each([
      ['a deposit', DEPOSIT_ID, depositIn('payment_reported')],
      ['a withdrawal', WITHDRAWAL_ID, withdrawalIn('pending')],
    ])("refuses %s set above the merchant's maximum or below its minimum, naming the range", (_what, id, events) => {
      const given = givenTransaction(...events);
      const ledger = givenLedger(MERCHANT_ID, []);
      for (const amount of [500_001n, 999n]) {
        const refusal = refusalOf(decideChangeAmount(change(id, amount), given, { merchant: ranged, ledger }));
        expect(refusal.errorCode).toBe('amount_out_of_range');
        expect(refusal.message).toBe('amount must be between 10.00 and 5000.00 TRY');
        expect(refusal.details).toEqual({ minAmount: '10.00', maxAmount: '5000.00' });
      }
    });

    it('takes exactly the minimum and the maximum', () => {
      const given = givenTransaction(...depositIn('awaiting_payment'));
      for (const amount of [1_000n, 500_000n]) {
        expect(
          then(decideChangeAmount(change(DEPOSIT_ID, amount), given, { merchant: ranged, ledger: undefined })),
        ).toMatchObject({
          writes: [{}],
        });
      }
    });
  });

  describe('a withdrawal', () => {
    // 100.00 TRY reserved with a 2.00 TRY fee (2 %), after 500.00 TRY credited.
    const merchant = merchantRecord({ withdrawalCommissionBp: 200, overdraftLimitKurus: '0' });
    const credited = domainEvent('TransfersPosted', {
      transactionId: DEPOSIT_ID,
      merchantId: MERCHANT_ID,
      transfers: [
        {
          transferId: `${DEPOSIT_ID}:deposit`,
          debitAccount: ACCOUNTS.bank('ba-1'),
          creditAccount: ACCOUNTS.merchant(MERCHANT_ID),
          amountKurus: '50000',
        },
      ],
    });
    const reserved = domainEvent('TransfersReserved', {
      transactionId: WITHDRAWAL_ID,
      merchantId: MERCHANT_ID,
      transfers: withdrawalTransfers(WITHDRAWAL_ID, MERCHANT_ID, 10_000n, 200n),
    });
    const ledger = givenLedger(MERCHANT_ID, [credited, reserved], WITHDRAWAL_ID);

    it.each(['pending', 'processing'] as const)(
      'in %s moves its reservation to the new amount and fee, at the ledger version read',
      (state) => {
        const given = givenTransaction(...withdrawalIn(state, '10000', '200'));
        expect(then(decideChangeAmount(change(WITHDRAWAL_ID, 20_000n), given, { merchant, ledger }))).toEqual({
          writes: [
            {
              streamId: STREAMS.transaction(WITHDRAWAL_ID),
              expectedVersion: given.version,
              events: [
                domainEvent('TransactionAmountChanged', {
                  transactionId: WITHDRAWAL_ID,
                  fromKurus: '10000',
                  toKurus: '20000',
                  feeKurus: '400',
                  by,
                }),
              ],
            },
            {
              streamId: STREAMS.merchantLedger(MERCHANT_ID),
              expectedVersion: 2,
              events: [
                domainEvent('ReservationChanged', {
                  transactionId: WITHDRAWAL_ID,
                  merchantId: MERCHANT_ID,
                  // A new generation of transfer ids: the stream version the change lands at.
                  transfers: withdrawalTransfers(WITHDRAWAL_ID, MERCHANT_ID, 20_000n, 400n, given.version + 1),
                }),
              ],
            },
          ],
        });
      },
    );

    it('needs only the difference to fit: the old reservation is released in the same step', () => {
      // Available 500.00 − 102.00 = 398.00; 490.00 + 9.80 fee − 102.00 = 397.80 fits, 491.00 + 9.82 does not.
      const given = givenTransaction(...withdrawalIn('pending', '10000', '200'));
      expect(then(decideChangeAmount(change(WITHDRAWAL_ID, 49_000n), given, { merchant, ledger }))).toMatchObject({
        writes: [{}, {}],
      });
      const refusal = refusalOf(decideChangeAmount(change(WITHDRAWAL_ID, 49_100n), given, { merchant, ledger }));
      expect(refusal.errorCode).toBe('insufficient_balance');
      expect(refusal.details).toEqual({ availableKurus: '39800', requiredKurus: '39882', overdraftLimitKurus: '0' });
    });

    it("counts the merchant's overdraft limit", () => {
      const given = givenTransaction(...withdrawalIn('pending', '10000', '200'));
      const overdraft = merchantRecord({ withdrawalCommissionBp: 200, overdraftLimitKurus: '100' });
      expect(
        then(decideChangeAmount(change(WITHDRAWAL_ID, 49_100n), given, { merchant: overdraft, ledger })),
      ).toMatchObject({ writes: [{}, {}] });
    });

    it('lowering the amount releases part of the reservation', () => {
      const given = givenTransaction(...withdrawalIn('pending', '10000', '200'));
      expect(then(decideChangeAmount(change(WITHDRAWAL_ID, 5_000n), given, { merchant, ledger }))).toMatchObject({
        writes: [{ events: [{ data: { toKurus: '5000', feeKurus: '100' } }] }, {}],
      });
    });

    it.each(['approved', 'rejected'] as const)('%s is final', (state) => {
      const given = givenTransaction(...withdrawalIn(state));
      expect(then(decideChangeAmount(change(WITHDRAWAL_ID, 5_000n), given, { merchant, ledger }))).toEqual({
        refused: 'transaction_final',
      });
    });
  });
});
