import { ACCOUNTS, domainEvent, STREAMS } from '@transfergate/contracts';
import { withdrawalTransfers } from '../domain/merchant-ledger.js';
import { decideApprove } from './approve-transaction.decide.js';
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

const approveDeposit = (extra: { allowExpired?: boolean; paidAmountKurus?: string } = {}) => ({
  transactionId: DEPOSIT_ID,
  actor: OPERATOR,
  ...extra,
});
const noContext = { merchant: merchantRecord(), reservation: undefined };
const by = { source: 'panel', operatorId: 'op-1' };

describe('decideApprove', () => {
  describe('a deposit', () => {
    it.each(['awaiting_payment', 'payment_reported'] as const)(
      'in %s is approved and its amount credited to the merchant, all of it without a commission',
      (state) => {
        const given = givenTransaction(...depositIn(state));
        expect(then(decideApprove(approveDeposit(), given, noContext))).toEqual({
          writes: [
            {
              streamId: STREAMS.transaction(DEPOSIT_ID),
              expectedVersion: given.version,
              events: [
                domainEvent('TransactionApproved', {
                  transactionId: DEPOSIT_ID,
                  amountKurus: '10000',
                  fromState: state,
                  by,
                }),
              ],
            },
            {
              streamId: STREAMS.merchantLedger(MERCHANT_ID),
              expectedVersion: 'any',
              events: [
                domainEvent('TransfersPosted', {
                  transactionId: DEPOSIT_ID,
                  merchantId: MERCHANT_ID,
                  transfers: [
                    {
                      transferId: `${DEPOSIT_ID}:deposit`,
                      debitAccount: ACCOUNTS.bank('ba-1'),
                      creditAccount: ACCOUNTS.merchant(MERCHANT_ID),
                      amountKurus: '10000',
                    },
                  ],
                }),
              ],
            },
          ],
        });
      },
    );

    it("posts the merchant's deposit commission to fees and credits the rest (half a kuruş rounds up)", () => {
      const given = givenTransaction(...depositIn('payment_reported', '10050'));
      const decided = decideApprove(approveDeposit(), given, {
        merchant: merchantRecord({ depositCommissionBp: 150 }),
        reservation: undefined,
      });
      // 100.50 TRY × 1.5 % = 1.5075 TRY → 151 kuruş.
      const posted = then(decided);
      expect(posted).toMatchObject({
        writes: [
          {},
          {
            events: [
              {
                type: 'TransfersPosted',
                data: {
                  transfers: [
                    { creditAccount: ACCOUNTS.merchant(MERCHANT_ID), amountKurus: '9899' },
                    { transferId: `${DEPOSIT_ID}:commission`, creditAccount: ACCOUNTS.fees, amountKurus: '151' },
                  ],
                },
              },
            ],
          },
        ],
      });
    });

    it('after a changed amount posts the new amount', () => {
      const given = givenTransaction(
        ...depositIn('awaiting_payment'),
        domainEvent('TransactionAmountChanged', {
          transactionId: DEPOSIT_ID,
          fromKurus: '10000',
          toKurus: '12000',
          feeKurus: '0',
          by,
        }),
      );
      expect(then(decideApprove(approveDeposit(), given, noContext))).toMatchObject({
        writes: [
          { events: [{ data: { amountKurus: '12000' } }] },
          { events: [{ data: { transfers: [{ amountKurus: '12000' }] } }] },
        ],
      });
    });

    it('expired is refused, unless the approver may approve expired deposits', () => {
      const given = givenTransaction(...depositIn('expired'));
      expect(then(decideApprove(approveDeposit(), given, noContext))).toEqual({ refused: 'invalid_state_transition' });
      expect(then(decideApprove(approveDeposit({ allowExpired: true }), given, noContext))).toMatchObject({
        writes: [{ events: [{ type: 'TransactionApproved', data: { fromState: 'expired' } }] }, {}],
      });
    });

    it.each(['approved', 'rejected'] as const)('%s is final: refused, nothing posted twice', (state) => {
      const given = givenTransaction(...depositIn(state));
      const refusal = refusalOf(decideApprove(approveDeposit({ allowExpired: true }), given, noContext));
      expect(refusal.errorCode).toBe('transaction_final');
      expect(refusal.details).toEqual({ state });
    });

    it('with a paid amount that differs is refused as amount_mismatch, naming both amounts', () => {
      const given = givenTransaction(...depositIn('awaiting_payment'));
      const refusal = refusalOf(decideApprove(approveDeposit({ paidAmountKurus: '9999' }), given, noContext));
      expect(refusal.errorCode).toBe('amount_mismatch');
      expect(refusal.message).toContain('99.99 TRY');
      expect(refusal.message).toContain('100.00 TRY');
      expect(refusal.details).toEqual({ amountKurus: '10000', paidAmountKurus: '9999' });
    });

    it('with the paid amount equal to its own is approved', () => {
      const given = givenTransaction(...depositIn('awaiting_payment'));
      expect(then(decideApprove(approveDeposit({ paidAmountKurus: '10000' }), given, noContext))).toMatchObject({
        writes: [{ events: [{ type: 'TransactionApproved' }] }, { events: [{ type: 'TransfersPosted' }] }],
      });
    });
  });

  describe('a withdrawal', () => {
    const reservation = withdrawalTransfers(WITHDRAWAL_ID, MERCHANT_ID, 10000n, 200n);
    const reserved = domainEvent('TransfersReserved', {
      transactionId: WITHDRAWAL_ID,
      merchantId: MERCHANT_ID,
      transfers: reservation,
    });
    const approveWithdrawal = { transactionId: WITHDRAWAL_ID, actor: OPERATOR };

    it.each(['pending', 'processing'] as const)(
      'in %s is approved and posts exactly what it reserved (amount and fee)',
      (state) => {
        const given = givenTransaction(...withdrawalIn(state, '10000', '200'));
        const ledger = givenLedger(MERCHANT_ID, [reserved], WITHDRAWAL_ID);
        const decided = decideApprove(approveWithdrawal, given, {
          merchant: undefined,
          reservation: ledger.reservation,
        });
        expect(then(decided)).toEqual({
          writes: [
            {
              streamId: STREAMS.transaction(WITHDRAWAL_ID),
              expectedVersion: given.version,
              events: [
                domainEvent('TransactionApproved', {
                  transactionId: WITHDRAWAL_ID,
                  amountKurus: '10000',
                  fromState: state,
                  by,
                }),
              ],
            },
            {
              streamId: STREAMS.merchantLedger(MERCHANT_ID),
              expectedVersion: 'any',
              events: [
                domainEvent('ReservationPosted', {
                  transactionId: WITHDRAWAL_ID,
                  merchantId: MERCHANT_ID,
                  transfers: reservation,
                }),
              ],
            },
          ],
        });
      },
    );

    it.each(['approved', 'rejected'] as const)('%s is final', (state) => {
      const given = givenTransaction(...withdrawalIn(state));
      expect(then(decideApprove(approveWithdrawal, given, { merchant: undefined, reservation: undefined }))).toEqual({
        refused: 'transaction_final',
      });
    });

    it('without an open reservation is a broken invariant, not a refusal', () => {
      const given = givenTransaction(...withdrawalIn('pending'));
      expect(() => decideApprove(approveWithdrawal, given, { merchant: undefined, reservation: undefined })).toThrow(
        /no open reservation/,
      );
    });
  });
});
