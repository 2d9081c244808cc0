import { ACCOUNTS, domainEvent, STREAMS } from '@transfergate/contracts';
import { foldMerchantLedger, availableKurus, withdrawalTransfers } from '../domain/merchant-ledger.js';
import { decideSettlement } from './settle-transaction.decide.js';
import {
  DEPOSIT_ID,
  MERCHANT_ID,
  WITHDRAWAL_ID,
  depositIn,
  givenLedger,
  givenTransaction,
  merchantRecord,
  recorded,
  withdrawalIn,
} from './testing/given-when-then.js';

const deposit = givenTransaction(...depositIn('payment_reported', '100000')).view;
const withdrawal = givenTransaction(...withdrawalIn('pending', '10000', '150')).view;
const reserved = domainEvent('TransfersReserved', {
  transactionId: WITHDRAWAL_ID,
  merchantId: MERCHANT_ID,
  transfers: withdrawalTransfers(WITHDRAWAL_ID, MERCHANT_ID, 10_000n, 150n),
});

/** The merchant's available balance after these ledger events. */
function availableAfter(...events: ReturnType<typeof domainEvent>[]): bigint {
  const stream = STREAMS.merchantLedger(MERCHANT_ID);
  return availableKurus(
    foldMerchantLedger(
      MERCHANT_ID,
      events.map((event, i) => recorded(stream, i + 1, event)),
    ),
  );
}

describe('decideSettlement', () => {
  it.each([
    [0, '100000', undefined],
    [1, '99990', '10'],
    [250, '97500', '2500'],
    [10_000, '0', '100000'],
  ])('an approved 1,000.00 TRY deposit at %s bp credits %s kuruş and posts %s to fees', (bp, credited, commission) => {
    const write = decideSettlement('approved', deposit, {
      merchant: merchantRecord({ depositCommissionBp: bp }),
      reservation: undefined,
    })!;
    expect(write.streamId).toBe(STREAMS.merchantLedger(MERCHANT_ID));
    expect(write.expectedVersion).toBe('any');
    const transfers = (write.events[0]!.data as { transfers: Array<{ creditAccount: string; amountKurus: string }> })
      .transfers;
    expect(transfers[0]).toMatchObject({
      debitAccount: ACCOUNTS.bank('ba-1'),
      creditAccount: ACCOUNTS.merchant(MERCHANT_ID),
      amountKurus: credited,
    });
    expect(transfers[1]?.amountKurus).toBe(commission);
    // Invariant: the bank account's debit is the deposit's amount, split between merchant and fees.
    expect(transfers.reduce((sum, t) => sum + BigInt(t.amountKurus), 0n)).toBe(100_000n);
    expect(availableAfter(write.events[0]!)).toBe(BigInt(credited));
  });

  it('an approved deposit of a merchant whose rules are gone posts no commission', () => {
    const write = decideSettlement('approved', deposit, { merchant: undefined, reservation: undefined })!;
    expect(write.events[0]).toEqual(
      domainEvent('TransfersPosted', {
        transactionId: DEPOSIT_ID,
        merchantId: MERCHANT_ID,
        transfers: [
          {
            transferId: `${DEPOSIT_ID}:deposit`,
            debitAccount: ACCOUNTS.bank('ba-1'),
            creditAccount: ACCOUNTS.merchant(MERCHANT_ID),
            amountKurus: '100000',
          },
        ],
      }),
    );
  });

  it('a rejected deposit posts nothing', () => {
    expect(decideSettlement('rejected', deposit, { merchant: merchantRecord(), reservation: undefined })).toBe(
      undefined,
    );
  });

  it('an approved withdrawal posts its reservation: amount to payout clearing, fee to fees', () => {
    const ledger = givenLedger(MERCHANT_ID, [reserved], WITHDRAWAL_ID);
    const write = decideSettlement('approved', withdrawal, { merchant: undefined, reservation: ledger.reservation })!;
    expect(write.events).toEqual([
      domainEvent('ReservationPosted', {
        transactionId: WITHDRAWAL_ID,
        merchantId: MERCHANT_ID,
        transfers: [
          {
            transferId: `${WITHDRAWAL_ID}:payout`,
            debitAccount: ACCOUNTS.merchant(MERCHANT_ID),
            creditAccount: ACCOUNTS.payoutClearing,
            amountKurus: '10000',
          },
          {
            transferId: `${WITHDRAWAL_ID}:fee`,
            debitAccount: ACCOUNTS.merchant(MERCHANT_ID),
            creditAccount: ACCOUNTS.fees,
            amountKurus: '150',
          },
        ],
      }),
    ]);
    // Reserved then posted: the balance stays down by amount and fee.
    expect(availableAfter(reserved, write.events[0]!)).toBe(-10_150n);
  });

  it('a rejected withdrawal voids its reservation: the balance is whole again', () => {
    const write = decideSettlement('rejected', withdrawal, { merchant: undefined, reservation: undefined })!;
    expect(write.events).toEqual([
      domainEvent('ReservationVoided', { transactionId: WITHDRAWAL_ID, merchantId: MERCHANT_ID }),
    ]);
    expect(availableAfter(reserved)).toBe(-10_150n);
    expect(availableAfter(reserved, write.events[0]!)).toBe(0n);
  });
});
