import { STREAMS, domainEvent, type StatementLineView } from '@transfergate/contracts';
import { decideMatch, differencesOf, type MatchRequest } from './match-statement-line.decide.js';
import {
  DEPOSIT_ID,
  OPERATOR,
  WITHDRAWAL_ID,
  accepted,
  depositIn,
  givenTransaction,
  merchantRecord,
  refusalOf,
  withdrawalIn,
} from './testing/given-when-then.js';

const LINE_ID = '44444444-4444-4444-8444-444444444444';
const by = { source: 'panel', operatorId: 'op-1' };

function line(change: Partial<StatementLineView> = {}): StatementLineView {
  return {
    lineId: LINE_ID,
    bankAccountId: 'ba-1',
    importId: '55555555-5555-4555-8555-555555555555',
    bookedOn: '2026-01-01',
    direction: 'credit',
    amountKurus: '10000',
    description: 'TG-1 Ayşe Yılmaz',
    state: 'queued',
    differences: [],
    candidates: [],
    ...change,
  };
}

const match = (change: Partial<MatchRequest> = {}): MatchRequest => ({
  lineId: LINE_ID,
  transactionId: DEPOSIT_ID,
  amount: 'requested',
  allowExpired: false,
  actor: OPERATOR,
  mode: 'operator',
  ...change,
});

const deposit = (state: Parameters<typeof depositIn>[0] = 'awaiting_payment') =>
  givenTransaction(...depositIn(state)).view;

describe('decideMatch', () => {
  it('approves an open deposit paid as asked: the pair claimed, then the approval, then the record', () => {
    const plan = accepted(decideMatch(match(), { line: line(), transaction: deposit(), matchedLineId: undefined }));
    expect(plan).toEqual({
      claim: [
        {
          streamId: STREAMS.statementLineClaim(LINE_ID),
          expectedVersion: 'no_stream',
          events: [
            domainEvent('StatementLineClaimed', {
              lineId: LINE_ID,
              bankAccountId: 'ba-1',
              decision: 'match',
              transactionId: DEPOSIT_ID,
            }),
          ],
        },
        {
          streamId: STREAMS.statementMatch(DEPOSIT_ID),
          expectedVersion: 'no_stream',
          events: [
            domainEvent('StatementMatchClaimed', { transactionId: DEPOSIT_ID, lineId: LINE_ID, bankAccountId: 'ba-1' }),
          ],
        },
      ],
      changeAmountKurus: undefined,
      approve: true,
      matched: domainEvent('StatementLineMatched', {
        lineId: LINE_ID,
        bankAccountId: 'ba-1',
        transactionId: DEPOSIT_ID,
        number: 1,
        mode: 'operator',
        decision: 'approve',
        lineAmountKurus: '10000',
        requestedAmountKurus: '10000',
        differences: [],
        reasons: [],
        by,
      }),
      waitsForSecondOperator: false,
    });
  });

  it('keeps the automatic match its score and reasons', () => {
    const plan = accepted(
      decideMatch(match({ mode: 'auto', score: 97, reasons: ['reference'], actor: { source: 'reconciliation' } }), {
        line: line(),
        transaction: deposit('payment_reported'),
        matchedLineId: undefined,
      }),
    );
    expect(plan.matched.data).toMatchObject({
      mode: 'auto',
      score: 97,
      reasons: ['reference'],
      by: { source: 'reconciliation' },
    });
  });

  describe('the difference states', () => {
    it.each([
      ['paid less, approved at the requested amount', '9000', 'requested', undefined, 'approve', ['paid_less']],
      ['paid more, approved at the requested amount', '11000', 'requested', undefined, 'approve', ['paid_more']],
      ['paid less, approved at the received amount', '9000', 'received', 9000n, 'approve_received', ['paid_less']],
      ['paid more, approved at the received amount', '11000', 'received', 11000n, 'approve_received', ['paid_more']],
      ['paid as asked, the received amount changes nothing', '10000', 'received', undefined, 'approve', []],
    ] as const)('%s', (_what, paid, amount, changeAmountKurus, decision, differences) => {
      const plan = accepted(
        decideMatch(match({ amount }), {
          line: line({ amountKurus: paid }),
          transaction: deposit(),
          matchedLineId: undefined,
        }),
      );
      expect(plan.changeAmountKurus).toBe(changeAmountKurus);
      expect(plan.approve).toBe(true);
      expect(plan.matched.data).toMatchObject({
        decision,
        differences,
        lineAmountKurus: paid,
        requestedAmountKurus: '10000',
      });
    });

    it('paid after expiry: approved only with the permission, and recorded as such', () => {
      const state = { line: line({ amountKurus: '9000' }), transaction: deposit('expired'), matchedLineId: undefined };
      const refusal = refusalOf(decideMatch(match(), state));
      expect(refusal.errorCode).toBe('permission_denied');
      expect(refusal.message).toBe('TG-1 expired: approving it needs transactions.approve_expired');
      const plan = accepted(decideMatch(match({ allowExpired: true }), state));
      expect(plan.matched.data.differences).toEqual(['paid_less', 'paid_after_expiry']);
    });

    it('paid by a third party: the candidate assessment carries into the record', () => {
      const thirdParty = line({
        candidates: [
          { transactionId: DEPOSIT_ID, number: 1, score: 0.8, reasons: [], differences: ['third_party'] } as never,
        ],
      });
      const plan = accepted(
        decideMatch(match(), { line: thirdParty, transaction: deposit(), matchedLineId: undefined }),
      );
      expect(plan.matched.data.differences).toEqual(['third_party']);
    });

    it('paid twice: a deposit matched to another line is refused, naming that line', () => {
      const refusal = refusalOf(
        decideMatch(match(), { line: line(), transaction: deposit(), matchedLineId: 'other-line' }),
      );
      expect(refusal.errorCode).toBe('line_decided');
      expect(refusal.details).toEqual({ lineId: 'other-line' });
    });

    it('an approved deposit is linked, never approved again nor changed', () => {
      const plan = accepted(
        decideMatch(match({ amount: 'received' }), {
          line: line({ amountKurus: '12000' }),
          transaction: deposit('approved'),
          matchedLineId: undefined,
        }),
      );
      expect(plan).toMatchObject({ approve: false, changeAmountKurus: undefined });
      expect(plan.matched.data).toMatchObject({ decision: 'link', differences: ['paid_more'] });
    });
  });

  describe("a received amount outside the merchant's range", () => {
    const ranged = merchantRecord({ minAmountKurus: '1000', maxAmountKurus: '500000' });
    const paid = (amountKurus: string) => ({
      line: line({ amountKurus }),
      transaction: deposit(),
      matchedLineId: undefined,
      merchant: ranged,
    });

    it('is refused before anything is claimed, naming the range', () => {
      const refusal = refusalOf(decideMatch(match({ amount: 'received' }), paid('90000000')));
      expect(refusal.errorCode).toBe('amount_out_of_range');
      expect(refusal.message).toBe(
        "TG-1: the received amount 900000.00 TRY is outside the merchant's range (10.00 to 5000.00 TRY): approve at the requested amount or dismiss the line",
      );
      expect(refusal.details).toEqual({ minAmount: '10.00', maxAmount: '5000.00' });
      expect(refusalOf(decideMatch(match({ amount: 'received' }), paid('999'))).errorCode).toBe('amount_out_of_range');
    });

    it('is no bar to approving at the requested amount', () => {
      expect(accepted(decideMatch(match({ amount: 'requested' }), paid('90000000'))).matched.data).toMatchObject({
        decision: 'approve',
        differences: ['paid_more'],
      });
    });

    it('within the range is set and approved', () => {
      expect(accepted(decideMatch(match({ amount: 'received' }), paid('500000'))).changeAmountKurus).toBe(500_000n);
    });
  });

  describe('a received amount beyond the four-eyes limits', () => {
    // A difference of more than 100.00 TRY waits for a second operator.
    const fourEyes = { aboveKurus: 10_000n, abovePercent: 0 };
    const paid = (amountKurus: string, transaction = deposit()) => ({
      line: line({ amountKurus }),
      transaction,
      matchedLineId: undefined,
      merchant: merchantRecord(),
      fourEyes,
    });

    it('waits for a second operator: the plan says so (nothing is claimed or approved by its handler)', () => {
      const plan = accepted(decideMatch(match({ amount: 'received' }), paid('20001')));
      expect(plan).toMatchObject({ waitsForSecondOperator: true, changeAmountKurus: 20_001n });
    });

    it('within the limits, or at the requested amount, is matched at once', () => {
      expect(accepted(decideMatch(match({ amount: 'received' }), paid('20000'))).waitsForSecondOperator).toBe(false);
      expect(accepted(decideMatch(match(), paid('90000'))).waitsForSecondOperator).toBe(false);
    });

    it('is refused with amount_change_pending while the deposit has a change waiting', () => {
      const waiting = givenTransaction(
        ...depositIn('payment_reported'),
        domainEvent('AmountChangeRequested', {
          transactionId: DEPOSIT_ID,
          requestId: '66666666-6666-4666-8666-666666666666',
          fromKurus: '10000',
          toKurus: '30000',
          originalKurus: '10000',
          by,
        }),
      ).view;
      expect(refusalOf(decideMatch(match({ amount: 'received' }), paid('30000', waiting))).errorCode).toBe(
        'amount_change_pending',
      );
    });
  });

  it('refuses a rejected deposit: dismiss the line instead', () => {
    expect(
      refusalOf(decideMatch(match(), { line: line(), transaction: deposit('rejected'), matchedLineId: undefined }))
        .errorCode,
    ).toBe('invalid_state_transition');
  });

  it('refuses a deposit paid into another account', () => {
    const refusal = refusalOf(
      decideMatch(match(), { line: line({ bankAccountId: 'ba-2' }), transaction: deposit(), matchedLineId: undefined }),
    );
    expect(refusal.errorCode).toBe('validation_failed');
  });

  it.each([
    ['an unknown line', undefined, 'not_found'],
    ['a matched line', line({ state: 'matched' }), 'line_decided'],
    ['a dismissed line', line({ state: 'dismissed' }), 'line_decided'],
  ] as const)('refuses %s', (_what, given, code) => {
    expect(
      refusalOf(decideMatch(match(), { line: given, transaction: deposit(), matchedLineId: undefined })).errorCode,
    ).toBe(code);
  });

  it('refuses a credit line for an unknown transaction or a withdrawal', () => {
    const withdrawal = givenTransaction(...withdrawalIn('approved')).view;
    for (const transaction of [undefined, withdrawal]) {
      expect(refusalOf(decideMatch(match(), { line: line(), transaction, matchedLineId: undefined })).errorCode).toBe(
        'transaction_not_found',
      );
    }
  });

  describe('a debit line', () => {
    const debit = line({ direction: 'debit' });
    const payout = match({ transactionId: WITHDRAWAL_ID });

    it('links the approved withdrawal it pays out', () => {
      const plan = accepted(
        decideMatch(payout, {
          line: debit,
          transaction: givenTransaction(...withdrawalIn('approved')).view,
          matchedLineId: undefined,
        }),
      );
      expect(plan.approve).toBe(false);
      expect(plan.matched.data).toMatchObject({ decision: 'link', transactionId: WITHDRAWAL_ID });
    });

    it.each(['pending', 'processing', 'rejected'] as const)('refuses a withdrawal in %s: approve it first', (state) => {
      const refusal = refusalOf(
        decideMatch(payout, {
          line: debit,
          transaction: givenTransaction(...withdrawalIn(state)).view,
          matchedLineId: undefined,
        }),
      );
      expect(refusal.errorCode).toBe('invalid_state_transition');
    });

    it('refuses a deposit', () => {
      expect(
        refusalOf(decideMatch(payout, { line: debit, transaction: deposit(), matchedLineId: undefined })).errorCode,
      ).toBe('transaction_not_found');
    });
  });
});

describe('differencesOf', () => {
  it('names each difference once, in a stable order', () => {
    const line = {
      candidates: [
        { differences: ['third_party' as const, 'paid_less' as const] },
        { differences: ['third_party' as const] },
      ],
    };
    expect(differencesOf(9_000n, 10_000n, 'expired', line)).toEqual(['paid_less', 'paid_after_expiry', 'third_party']);
    expect(differencesOf(10_000n, 10_000n, 'awaiting_payment', { candidates: [] })).toEqual([]);
  });
});
