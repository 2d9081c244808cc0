import {
  DomainError,
  MAX_ERASURE_REASON_CHARS,
  MAX_ERASURE_SUBJECTS,
  domainEvent,
  type DomainEvent,
} from '@transfergate/contracts';
import type { Decided } from './decision.js';

export interface EraseCustomerCommand {
  erasureId: string;
  /** The pseudonyms (key table subject ids) of every identity the customer may have been named by. */
  subjectIds: readonly string[];
  reason: string;
  /** Operator ids of the admin who asked and of the second admin who confirms. */
  requestedBy: string;
  confirmedBy: string;
}

/** What the erasure would destroy and scrub, loaded before deciding. */
export interface ErasureContext {
  liveKeys: number;
  transactions: number;
  statementLines: number;
}

/**
 * Erasing a customer (docs/decisions/0067-personal-data.md): an admin asks with a reason, a second
 * admin confirms (four eyes: the same operator is refused), and there must be a live key to destroy.
 */
export function decideEraseCustomer(
  command: EraseCustomerCommand,
  context: ErasureContext,
): Decided<DomainEvent<'CustomerErased'>> {
  const reason = command.reason.trim();
  if (reason === '' || reason.length > MAX_ERASURE_REASON_CHARS) {
    return new DomainError(
      'validation_failed',
      `an erasure has a reason of 1 to ${MAX_ERASURE_REASON_CHARS} characters`,
    );
  }
  if (command.requestedBy.trim() === '' || command.confirmedBy.trim() === '') {
    return new DomainError('validation_failed', 'an erasure names the admin who asked and the one who confirmed');
  }
  if (command.requestedBy === command.confirmedBy) {
    return new DomainError('permission_denied', 'a second admin confirms an erasure, not the one who asked for it');
  }
  if (command.subjectIds.length === 0 || command.subjectIds.length > MAX_ERASURE_SUBJECTS) {
    return new DomainError('validation_failed', `an erasure names 1 to ${MAX_ERASURE_SUBJECTS} identities`);
  }
  if (context.liveKeys === 0) return new DomainError('not_found', 'no personal data of this customer is held');
  return domainEvent('CustomerErased', {
    erasureId: command.erasureId,
    subjectIds: [...command.subjectIds],
    keysDestroyed: context.liveKeys,
    transactions: context.transactions,
    statementLines: context.statementLines,
    reason,
    requestedBy: command.requestedBy,
    confirmedBy: command.confirmedBy,
  });
}
