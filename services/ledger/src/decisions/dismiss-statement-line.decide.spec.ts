import { STREAMS, domainEvent, type StatementLineView } from '@transfergate/contracts';
import { decideDismiss, dismissReasonOf } from './dismiss-statement-line.decide.js';
import { OPERATOR, accepted, refusalOf } from './testing/given-when-then.js';

const LINE_ID = '44444444-4444-4444-8444-444444444444';

function line(change: Partial<StatementLineView> = {}): StatementLineView {
  return {
    lineId: LINE_ID,
    bankAccountId: 'ba-1',
    importId: '55555555-5555-4555-8555-555555555555',
    bookedOn: '2026-01-01',
    direction: 'credit',
    amountKurus: '10000',
    description: 'unknown sender',
    state: 'queued',
    differences: ['unknown_credit'],
    candidates: [],
    ...change,
  };
}

const dismiss = (reason = '  refunded to the sender ') => ({ lineId: LINE_ID, reason, actor: OPERATOR });

describe('decideDismiss', () => {
  it('dismisses a queued line with the trimmed reason and its differences, and claims the line', () => {
    expect(accepted(decideDismiss(dismiss(), { line: line() }))).toEqual({
      dismissed: domainEvent('StatementLineDismissed', {
        lineId: LINE_ID,
        bankAccountId: 'ba-1',
        reason: 'refunded to the sender',
        differences: ['unknown_credit'],
        by: { source: 'panel', operatorId: 'op-1' },
      }),
      claim: {
        streamId: STREAMS.statementLineClaim(LINE_ID),
        expectedVersion: 'no_stream',
        events: [domainEvent('StatementLineClaimed', { lineId: LINE_ID, bankAccountId: 'ba-1', decision: 'dismiss' })],
      },
    });
  });

  it.each([
    ['an unknown line', undefined, 'not_found'],
    ['a matched line', line({ state: 'matched' }), 'line_decided'],
    ['a dismissed line', line({ state: 'dismissed' }), 'line_decided'],
  ] as const)('refuses %s', (_what, given, code) => {
    expect(refusalOf(decideDismiss(dismiss(), { line: given })).errorCode).toBe(code);
  });

  it.each(['', '  ', 'x'.repeat(501)])(
    'refuses a missing or too long reason (%#), before the line is read',
    (reason) => {
      expect(refusalOf(dismissReasonOf(dismiss(reason))).errorCode).toBe('validation_failed');
      expect(refusalOf(decideDismiss(dismiss(reason), { line: undefined })).errorCode).toBe('validation_failed');
    },
  );
});
