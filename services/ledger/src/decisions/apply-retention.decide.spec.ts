import { domainEvent } from '@transfergate/contracts';
import { decideApplyRetention } from './apply-retention.decide.js';

const command = { runId: '0193a5b0-0000-7000-8000-000000000002', asOfMs: Date.UTC(2034, 11, 8), defaultYears: 8 };

describe('decideApplyRetention', () => {
  it('given subjects past their period, when the pass runs, then it records exactly those', () => {
    expect(decideApplyRetention(command, { subjectIds: ['a'.repeat(32)], transactions: 4, statementLines: 1 })).toEqual(
      domainEvent('RetentionApplied', {
        runId: command.runId,
        asOf: '2034-12-08T00:00:00.000Z',
        defaultYears: 8,
        subjectIds: ['a'.repeat(32)],
        transactions: 4,
        statementLines: 1,
      }),
    );
  });

  it('records nothing when nobody is past the period', () => {
    expect(decideApplyRetention(command, { subjectIds: [], transactions: 0, statementLines: 0 })).toBeNull();
  });

  it('refuses a pass larger than one event may name', () => {
    const subjectIds = Array.from({ length: 1_001 }, (_, i) => i.toString(16).padStart(32, '0'));
    expect(() => decideApplyRetention(command, { subjectIds, transactions: 0, statementLines: 0 })).toThrow(/at most/);
  });
});
