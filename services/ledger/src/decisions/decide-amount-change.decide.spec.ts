import { ACCOUNTS, STREAMS, domainEvent } from '@transfergate/contracts';
import { withdrawalTransfers } from '../domain/merchant-ledger.js';
import { decideChangeAmount, needsSecondOperator } from './change-amount.decide.js';
import { decideAmountChangeDecision } from './decide-amount-change.decide.js';
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

const REQUEST_ID = '33333333-3333-4333-8333-333333333333';
const SECOND = { source: 'panel', operatorId: 'op-2' } as const;
// A change of more than 100.00 TRY, or of more than 50 % of the requested amount, waits.
const fourEyes = { aboveKurus: 10_000n, abovePercent: 50 };
const merchant = merchantRecord();
const context = { merchant, ledger: undefined, fourEyes, requestId: REQUEST_ID };

const requested = (toKurus: string, fromKurus = '10000', transactionId = DEPOSIT_ID) =>
  domainEvent('AmountChangeRequested', {
    transactionId,
    requestId: REQUEST_ID,
    fromKurus,
    toKurus,
    originalKurus: fromKurus,
    by: { source: 'panel', operatorId: 'op-1' },
  });

describe('needsSecondOperator', () => {
  it.each([
    // requested, new amount, waits
    [10_000n, 20_000n, true], // +100.00 TRY is not above the sum, but 100 % is above the share
    [100_000n, 110_000n, false], // +100.00 TRY, 10 %
    [100_000n, 110_001n, true], // one kuruş above the sum
    [10_000n, 15_000n, false], // 50 % exactly
    [10_000n, 15_001n, true], // 50.01 %
  ])('requested %s kuruş, set to %s: waits %s', (original, to, waits) => {
    expect(needsSecondOperator(original, to, fourEyes)).toBe(waits);
  });

  it('measures against the requested amount both ways, and waits for nothing without limits', () => {
    expect(needsSecondOperator(100_000n, 89_999n, fourEyes)).toBe(true);
    expect(needsSecondOperator(100_000n, 90_000n, fourEyes)).toBe(false);
    expect(needsSecondOperator(100_000n, 10_000_000n, undefined)).toBe(false);
    // A share of 0 is no share limit: only the sum counts.
    expect(needsSecondOperator(1_000n, 9_000n, { aboveKurus: 10_000n, abovePercent: 0 })).toBe(false);
  });
});

describe('decideChangeAmount with four eyes', () => {
  it('a change beyond the limits is asked for, not made: AmountChangeRequested alone, at the version read', () => {
    const given = givenTransaction(...depositIn('payment_reported'));
    expect(
      then(decideChangeAmount({ transactionId: DEPOSIT_ID, amountKurus: 25_000n, actor: OPERATOR }, given, context)),
    ).toEqual({
      writes: [
        {
          streamId: STREAMS.transaction(DEPOSIT_ID),
          expectedVersion: given.version,
          events: [requested('25000')],
        },
      ],
    });
  });

  it('a change within the limits is made at once', () => {
    const given = givenTransaction(...depositIn('awaiting_payment'));
    expect(
      then(decideChangeAmount({ transactionId: DEPOSIT_ID, amountKurus: 12_000n, actor: OPERATOR }, given, context)),
    ).toMatchObject({ writes: [{ events: [{ type: 'TransactionAmountChanged' }] }] });
  });

  it('while a change waits, any other change is refused with amount_change_pending', () => {
    const given = givenTransaction(...depositIn('awaiting_payment'), requested('25000'));
    const refusal = refusalOf(
      decideChangeAmount({ transactionId: DEPOSIT_ID, amountKurus: 11_000n, actor: SECOND }, given, context),
    );
    expect(refusal.errorCode).toBe('amount_change_pending');
    expect(refusal.details).toEqual({ requestId: REQUEST_ID });
  });

  it('the range is checked before anything is asked for', () => {
    const given = givenTransaction(...depositIn('awaiting_payment'));
    const ranged = { ...context, merchant: merchantRecord({ maxAmountKurus: '20000' }) };
    expect(
      then(decideChangeAmount({ transactionId: DEPOSIT_ID, amountKurus: 90_000_000n, actor: OPERATOR }, given, ranged)),
    ).toEqual({ refused: 'amount_out_of_range' });
  });
});

describe('decideAmountChangeDecision', () => {
  const approve = (actor: { source: string; operatorId?: string }, requestId = REQUEST_ID) => ({
    transactionId: DEPOSIT_ID,
    requestId,
    decision: 'approve' as const,
    actor,
  });

  it('a second operator approves: the change, then AmountChangeApproved, in one write at the version read', () => {
    const given = givenTransaction(...depositIn('payment_reported'), requested('25000'));
    expect(then(decideAmountChangeDecision(approve(SECOND), given, context))).toEqual({
      writes: [
        {
          streamId: STREAMS.transaction(DEPOSIT_ID),
          expectedVersion: given.version,
          events: [
            domainEvent('TransactionAmountChanged', {
              transactionId: DEPOSIT_ID,
              fromKurus: '10000',
              toKurus: '25000',
              feeKurus: '0',
              by: SECOND,
            }),
            domainEvent('AmountChangeApproved', {
              transactionId: DEPOSIT_ID,
              requestId: REQUEST_ID,
              fromKurus: '10000',
              toKurus: '25000',
              requestedBy: 'op-1',
              by: SECOND,
            }),
          ],
        },
      ],
    });
  });

  it('the operator who asked cannot approve or reject it', () => {
    const given = givenTransaction(...depositIn('payment_reported'), requested('25000'));
    expect(then(decideAmountChangeDecision(approve(OPERATOR), given, context))).toEqual({
      refused: 'four_eyes_same_operator',
    });
    expect(
      then(decideAmountChangeDecision({ ...approve(OPERATOR), decision: 'reject', reason: 'no' }, given, context)),
    ).toEqual({ refused: 'four_eyes_same_operator' });
  });

  it('an approval decided again after the first was appended finds nothing waiting (two approvals apply once)', () => {
    const first = givenTransaction(...depositIn('payment_reported'), requested('25000'));
    const writes = decideAmountChangeDecision(approve(SECOND), first, context);
    if (writes instanceof Error) throw writes;
    const after = givenTransaction(...depositIn('payment_reported'), requested('25000'), ...writes[0]!.events);
    expect(after.view.amountKurus).toBe('25000');
    expect(after.view.pendingAmountChange).toBeUndefined();
    expect(then(decideAmountChangeDecision(approve({ source: 'panel', operatorId: 'op-3' }), after, context))).toEqual({
      refused: 'amount_change_not_pending',
    });
  });

  it('a request id that does not wait is refused', () => {
    const given = givenTransaction(...depositIn('payment_reported'), requested('25000'));
    expect(
      then(decideAmountChangeDecision(approve(SECOND, '44444444-4444-4444-8444-444444444444'), given, context)),
    ).toEqual({ refused: 'amount_change_not_pending' });
    expect(
      then(decideAmountChangeDecision(approve(SECOND), givenTransaction(...depositIn('payment_reported')), context)),
    ).toEqual({
      refused: 'amount_change_not_pending',
    });
  });

  it('a rejection needs a reason and keeps the amount', () => {
    const given = givenTransaction(...depositIn('payment_reported'), requested('25000'));
    expect(then(decideAmountChangeDecision({ ...approve(SECOND), decision: 'reject' }, given, context))).toEqual({
      refused: 'validation_failed',
    });
    const rejected = decideAmountChangeDecision(
      { ...approve(SECOND), decision: 'reject', reason: ' wrong line ' },
      given,
      context,
    );
    expect(then(rejected)).toEqual({
      writes: [
        {
          streamId: STREAMS.transaction(DEPOSIT_ID),
          expectedVersion: given.version,
          events: [
            domainEvent('AmountChangeRejected', {
              transactionId: DEPOSIT_ID,
              requestId: REQUEST_ID,
              fromKurus: '10000',
              toKurus: '25000',
              requestedBy: 'op-1',
              reason: 'wrong line',
              by: SECOND,
            }),
          ],
        },
      ],
    });
    if (rejected instanceof Error) throw rejected;
    const after = givenTransaction(...depositIn('payment_reported'), requested('25000'), ...rejected[0]!.events);
    expect(after.view).toMatchObject({ amountKurus: '10000' });
    expect(after.view.pendingAmountChange).toBeUndefined();
  });

  it('a transaction that became final has nothing left to change: the waiting change is gone', () => {
    const approvedMeanwhile = givenTransaction(
      ...depositIn('payment_reported'),
      requested('25000'),
      domainEvent('TransactionApproved', {
        transactionId: DEPOSIT_ID,
        amountKurus: '10000',
        fromState: 'payment_reported',
        by: SECOND,
      }),
    );
    expect(approvedMeanwhile.view.pendingAmountChange).toBeUndefined();
    expect(then(decideAmountChangeDecision(approve(SECOND), approvedMeanwhile, context))).toEqual({
      refused: 'amount_change_not_pending',
    });
  });

  it("the merchant's range is checked again at the approval", () => {
    const given = givenTransaction(...depositIn('payment_reported'), requested('25000'));
    const narrowed = { ...context, merchant: merchantRecord({ maxAmountKurus: '20000' }) };
    expect(then(decideAmountChangeDecision(approve(SECOND), given, narrowed))).toEqual({
      refused: 'amount_out_of_range',
    });
  });

  it("a withdrawal's approved change moves its reservation in the same append", () => {
    const credited = domainEvent('TransfersPosted', {
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
    });
    const reserved = domainEvent('TransfersReserved', {
      transactionId: WITHDRAWAL_ID,
      merchantId: MERCHANT_ID,
      transfers: withdrawalTransfers(WITHDRAWAL_ID, MERCHANT_ID, 10_000n, 0n),
    });
    const ledger = givenLedger(MERCHANT_ID, [credited, reserved], WITHDRAWAL_ID);
    const given = givenTransaction(...withdrawalIn('pending'), requested('30000', '10000', WITHDRAWAL_ID));
    const answer = then(
      decideAmountChangeDecision({ ...approve(SECOND), transactionId: WITHDRAWAL_ID }, given, { ...context, ledger }),
    );
    expect(answer).toMatchObject({
      writes: [
        {
          streamId: STREAMS.transaction(WITHDRAWAL_ID),
          events: [{ type: 'TransactionAmountChanged' }, { type: 'AmountChangeApproved' }],
        },
        {
          streamId: STREAMS.merchantLedger(MERCHANT_ID),
          expectedVersion: 2,
          events: [
            {
              type: 'ReservationChanged',
              data: { transfers: withdrawalTransfers(WITHDRAWAL_ID, MERCHANT_ID, 30_000n, 0n, given.version + 1) },
            },
          ],
        },
      ],
    });
  });
});
