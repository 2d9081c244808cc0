import { STREAMS, domainEvent } from '@transfergate/contracts';
import { decideRecordSignIn } from './record-sign-in.decide.js';

const step = (
  outcome: 'failed' | 'signed_in' | 'second_factor_verified' | 'second_factor_failed',
  operatorId?: string,
) => ({
  outcome,
  username: '  deniz  ',
  operatorId,
  secondFactorRequired: true,
});

describe('decideRecordSignIn', () => {
  it("records a failed password on the operator's stream when the name was one, else on the unknown one", () => {
    expect(decideRecordSignIn(step('failed', 'op-2'))).toEqual([
      {
        streamId: STREAMS.signIn('op-2'),
        expectedVersion: 'any',
        events: [domainEvent('OperatorSignInFailed', { username: 'deniz', operatorId: 'op-2' })],
      },
    ]);
    expect(decideRecordSignIn(step('failed'))[0]).toMatchObject({
      streamId: 'signin-unknown',
      events: [{ type: 'OperatorSignInFailed', data: { username: 'deniz' } }],
    });
  });

  it.each([
    ['signed_in', 'OperatorSignedIn'],
    ['second_factor_verified', 'OperatorSecondFactorVerified'],
    ['second_factor_failed', 'OperatorSecondFactorFailed'],
  ] as const)('records %s as %s', (outcome, type) => {
    expect(decideRecordSignIn(step(outcome, 'op-2'))[0]!.events[0]).toMatchObject({
      type,
      data: { operatorId: 'op-2', username: 'deniz' },
    });
  });

  it('keeps at most 64 characters of what was typed', () => {
    const long = { ...step('failed'), username: 'x'.repeat(200) };
    expect((decideRecordSignIn(long)[0]!.events[0]!.data as { username: string }).username).toHaveLength(64);
  });

  it('a step after the password without an operator is a broken invariant', () => {
    expect(() => decideRecordSignIn(step('signed_in'))).toThrow(/without an operator/);
  });
});
