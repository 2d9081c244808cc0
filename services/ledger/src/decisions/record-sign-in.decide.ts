import { STREAMS, domainEvent, type RecordSignInCommand } from '@transfergate/contracts';
import type { PendingWrite } from '../persistence/ledger-repository.js';

/** The longest typed username recorded (what was typed is kept, cut). */
export const MAX_SIGN_IN_USERNAME_CHARS = 64;

/**
 * A sign-in step for the audit log, on the operator's own `signin-<id>` stream at any version
 * (sign-ins never conflict with each other or with the operator's record). A failed password names
 * the operator only when the username was one; every other step follows a right password or a
 * verified challenge, so it names its operator.
 */
export function decideRecordSignIn(
  command: Pick<RecordSignInCommand, 'outcome' | 'username' | 'operatorId' | 'secondFactorRequired'>,
): PendingWrite[] {
  const username = command.username.trim().slice(0, MAX_SIGN_IN_USERNAME_CHARS);
  const { outcome, operatorId } = command;
  return [
    {
      streamId: STREAMS.signIn(operatorId),
      expectedVersion: 'any',
      events: [eventOf(outcome, username, operatorId, command.secondFactorRequired)],
    },
  ];
}

function eventOf(
  outcome: RecordSignInCommand['outcome'],
  username: string,
  operatorId: string | undefined,
  secondFactorRequired: boolean,
) {
  if (outcome === 'failed') {
    return domainEvent('OperatorSignInFailed', { username, ...(operatorId ? { operatorId } : {}) });
  }
  if (!operatorId) throw new Error(`sign-in step ${outcome} without an operator`);
  switch (outcome) {
    case 'signed_in':
      return domainEvent('OperatorSignedIn', { operatorId, username, secondFactorRequired });
    case 'second_factor_verified':
      return domainEvent('OperatorSecondFactorVerified', { operatorId, username });
    case 'second_factor_failed':
      return domainEvent('OperatorSecondFactorFailed', { operatorId, username });
  }
}
