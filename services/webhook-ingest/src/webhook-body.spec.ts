import { DomainError } from '@transfergate/contracts';
import {
  cleanText,
  clip,
  idCandidates,
  isJsonObject,
  mapStatus,
  paidAmountOf,
  rejectionReason,
  resolveCandidates,
} from './webhook-body.js';

/** Reading a free-form webhook body: its status, the ids that name the transaction, the amount, the reason. */
describe('webhook body', () => {
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error instanceof DomainError ? error.errorCode : String(error);
    }
    return 'no error';
  };

  it('maps statuses tolerantly from status / Status / state / result', () => {
    for (const value of ['approved', 'CONFIRMED', 'confirm', 'Success', 'true', true, ' paid ']) {
      expect(mapStatus({ status: value }).decision).toBe('approved');
    }
    for (const value of ['rejected', 'Declined', 'cancel', 'CANCELLED', 'failed', 'false', false]) {
      expect(mapStatus({ Status: value }).decision).toBe('rejected');
    }
    expect(mapStatus({ state: 'approved' })).toEqual({ field: 'state', sent: 'approved', decision: 'approved' });
    expect(mapStatus({ RESULT: 'declined' })).toMatchObject({ field: 'RESULT', decision: 'rejected' });
    // status is read before Message (the infrastructure form's Message "declined" is only the reason).
    expect(mapStatus({ Status: true, Message: 'declined' }).decision).toBe('approved');
    expect(codeOf(() => mapStatus({ status: 'pending' }))).toBe('invalid_state_transition');
    expect(codeOf(() => mapStatus({ status: 1 }))).toBe('invalid_state_transition');
    expect(codeOf(() => mapStatus({ status: null }))).toBe('invalid_state_transition');
    expect(codeOf(() => mapStatus({ message: 'approved' }))).toBe('validation_failed');
  });

  it('offers every id field in each of its meanings, skipping values that cannot be ids', () => {
    const uuid = '0b5e3b9a-6f3f-4d7e-9a57-2f8f0c1d9e11';
    expect(idCandidates({ transactionId: 'A-1', depositId: 42, uuid: uuid.toUpperCase(), id: '7' })).toEqual([
      { field: 'transactionId', meaning: 'external', value: 'A-1' },
      { field: 'depositId', meaning: 'number', value: '42' },
      { field: 'id', meaning: 'number', value: '7' },
      { field: 'id', meaning: 'external', value: '7' },
      { field: 'uuid', meaning: 'uuid', value: uuid },
      { field: 'uuid', meaning: 'external', value: uuid.toUpperCase() },
    ]);
    expect(idCandidates({ transactionId: 'a\u0000b', depositId: 1.5, id: {}, uuid: 'x'.repeat(129) })).toEqual([]);
  });

  it('resolves candidates to one transaction or says why not', () => {
    const a = { transactionId: 'aaaaaaaa-0000-4000-8000-000000000001', number: '1', externalId: 'A' };
    const b = { transactionId: 'aaaaaaaa-0000-4000-8000-000000000002', number: '2', externalId: '1' };
    const c = (field: string, meaning: 'external' | 'number' | 'uuid', value: string) => ({ field, meaning, value });
    expect(resolveCandidates([c('transactionId', 'external', 'A')], [a, b])).toEqual({
      kind: 'found',
      transactionId: a.transactionId,
    });
    // "id": 1 is a's number and b's external id: ambiguous alone, settled by another field.
    const id1 = [c('id', 'number', '1'), c('id', 'external', '1')];
    expect(resolveCandidates(id1, [a, b])).toEqual({ kind: 'ambiguous', count: 2 });
    expect(resolveCandidates([...id1, c('transactionId', 'external', 'A')], [a, b])).toMatchObject({ kind: 'found' });
    expect(resolveCandidates([c('transactionId', 'external', 'A'), c('depositId', 'number', '2')], [a, b])).toEqual({
      kind: 'conflict',
      fields: ['transactionId', 'depositId'],
    });
    // A field that matches nothing is passed over.
    expect(
      resolveCandidates([c('transactionId', 'external', 'UP-9'), c('depositId', 'number', '2')], [b]),
    ).toMatchObject({ kind: 'found', transactionId: b.transactionId });
    expect(resolveCandidates([c('transactionId', 'external', 'Z')], [])).toEqual({ kind: 'none' });
  });

  it('takes the rejection reason from reason / message / Message, cleaned and bounded', () => {
    expect(rejectionReason({ reason: ' closed ' })).toBe('closed');
    expect(rejectionReason({ Message: 'declined' })).toBe('declined');
    expect(rejectionReason({ reason: '   ', message: 'fallback' })).toBe('fallback');
    expect(rejectionReason({ reason: 5 })).toBe('rejected by upstream');
    expect(rejectionReason({ reason: 'x'.repeat(900) })).toHaveLength(500);
    expect(cleanText('a\u0000b\ud800c')).toBe('a b\ufffdc');
  });

  it('reads the paid amount from amount or Amount in kuruş, refuses an unreadable one, and is undefined when none', () => {
    expect(paidAmountOf({ amount: 150.5 })).toBe(15_050n);
    expect(paidAmountOf({ Amount: '99.99' })).toBe(9_999n);
    expect(paidAmountOf({ amount: null, Amount: 10 })).toBe(1_000n);
    expect(paidAmountOf({ status: 'approved' })).toBeUndefined();
    for (const amount of ['abc', 1.234, -5, 0, true, {}]) {
      expect(codeOf(() => paidAmountOf({ amount }))).toBe('invalid_amount');
    }
  });

  it('takes only a JSON object as a body', () => {
    expect(isJsonObject({})).toBe(true);
    for (const body of [null, [], 'approved', 5, undefined]) expect(isJsonObject(body)).toBe(false);
  });

  it('clips long text with an ellipsis, to exactly the limit', () => {
    expect(clip('short', 10)).toBe('short');
    expect(clip('x'.repeat(20), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(clip('x'.repeat(20), 10)).toHaveLength(10);
  });
});
