import {
  DomainError,
  STREAMS,
  domainEvent,
  isMerchantRole,
  type ConfigResult,
  type InviteMerchantUserCommand,
} from '@transfergate/contracts';
import type { Decided } from './decision.js';
import { MIN_OPERATOR_PASSWORD_CHARS } from './update-operator.decide.js';
import type { MerchantRecord, OperatorRecord, RecordDecision, RecordState } from './record-state.js';

/** What the handler loads for an invitation. */
export interface InviteMerchantUserState {
  merchant: RecordState<MerchantRecord> | undefined;
  /** The account the username already names, if any (operator or merchant user). */
  existing: RecordState<OperatorRecord> | undefined;
}

/**
 * A merchant user: an account scoped to an existing, not deleted merchant, holding a merchant role,
 * with its password arriving hashed. The username must be free (an invitation never takes over an
 * account); the account's stream is created with no_stream, so two invitations of one name at once
 * make one account.
 */
export function decideInviteMerchantUser(
  command: Pick<InviteMerchantUserCommand, 'input'>,
  state: InviteMerchantUserState,
  context: { operatorId: string; passwordHash: string; passwordChars: number },
): Decided<RecordDecision<ConfigResult>> {
  const { merchantId, username, role } = command.input;
  if (!isMerchantRole(role)) return new DomainError('validation_failed', `${role} is not a merchant role`);
  if (context.passwordChars < MIN_OPERATOR_PASSWORD_CHARS) {
    return new DomainError('validation_failed', 'the password needs at least 10 characters');
  }
  if (!state.merchant) return new DomainError('not_found', `no merchant ${merchantId}`);
  if (state.merchant.deleted) return new DomainError('not_found', `merchant ${merchantId} is deleted`);
  if (state.existing) return new DomainError('already_exists', `the username ${username} is taken`);
  const record: OperatorRecord = {
    operatorId: context.operatorId,
    username,
    passwordHash: context.passwordHash,
    role,
    active: true,
    merchantId,
  };
  return {
    writes: [
      {
        streamId: STREAMS.operator(context.operatorId),
        expectedVersion: 'no_stream',
        events: [domainEvent('OperatorConfigured', record)],
      },
    ],
    result: { id: context.operatorId, changed: true },
  };
}
