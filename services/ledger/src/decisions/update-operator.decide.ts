import { isDeepStrictEqual } from 'node:util';
import {
  DomainError,
  STREAMS,
  domainEvent,
  isMerchantRole,
  type ConfigResult,
  type UpdateOperatorCommand,
} from '@transfergate/contracts';
import type { Decided } from './decision.js';
import type { OperatorRecord, RecordDecision, RecordState } from './record-state.js';

/** The shortest operator password accepted. */
export const MIN_OPERATOR_PASSWORD_CHARS = 10;

/** The refusal of a too short password, checked before it is hashed or anything is read. */
export function updateOperatorInputRefusal(command: Pick<UpdateOperatorCommand, 'change'>): DomainError | undefined {
  const { password } = command.change;
  if (password !== undefined && password.length < MIN_OPERATOR_PASSWORD_CHARS) {
    return new DomainError('validation_failed', 'operator password needs at least 10 characters');
  }
  return undefined;
}

/**
 * A change to an operator's role, activity or password (arriving hashed, `passwordHash`). An event
 * only when the record changes.
 */
export function decideUpdateOperator(
  command: Pick<UpdateOperatorCommand, 'operatorId' | 'change'>,
  state: RecordState<OperatorRecord> | undefined,
  context: { passwordHash: string | undefined },
): Decided<RecordDecision<ConfigResult>> {
  const invalid = updateOperatorInputRefusal(command);
  if (invalid) return invalid;
  const { operatorId, change } = command;
  if (!state) return new DomainError('not_found', `no operator ${operatorId}`);
  // A merchant user keeps a merchant role and an operator never gets one: the role never moves an
  // account across the line between the operators' panel and a merchant's portal.
  if (change.role !== undefined && isMerchantRole(change.role) !== (state.record.merchantId !== undefined)) {
    return new DomainError(
      'validation_failed',
      state.record.merchantId !== undefined
        ? `a merchant user holds a merchant role, not ${change.role}`
        : `an operator cannot hold the merchant role ${change.role}`,
    );
  }
  const next = {
    ...state.record,
    ...(change.role !== undefined ? { role: change.role } : {}),
    ...(change.active !== undefined ? { active: change.active } : {}),
    ...(context.passwordHash !== undefined ? { passwordHash: context.passwordHash } : {}),
  };
  if (isDeepStrictEqual(next, state.record)) return { writes: [], result: { id: operatorId, changed: false } };
  return {
    writes: [
      {
        streamId: STREAMS.operator(operatorId),
        expectedVersion: state.version,
        events: [domainEvent('OperatorConfigured', next)],
      },
    ],
    result: { id: operatorId, changed: true },
  };
}
