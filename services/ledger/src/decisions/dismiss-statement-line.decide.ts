import {
  DomainError,
  STREAMS,
  domainEvent,
  type ActorRef,
  type DomainEvent,
  type StatementLineView,
} from '@transfergate/contracts';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { by, type Decided } from './decision.js';
import { queuedLineRefusal } from './match-statement-line.decide.js';

export interface DismissCommand {
  lineId: string;
  reason: string;
  actor: ActorRef;
}

/** The longest dismissal reason kept. */
export const MAX_DISMISS_REASON_CHARS = 500;

/** The reason as recorded (trimmed), or the refusal of a missing or too long one (checked before any read). */
export function dismissReasonOf(command: DismissCommand): Decided<string> {
  const text = command.reason.trim();
  if (!text || text.length > MAX_DISMISS_REASON_CHARS) {
    return new DomainError('validation_failed', 'a reason of 1..500 characters is required');
  }
  return text;
}

/** A dismissal: the decision on the line, and its claim (so a dismissed line never approves anything). */
export interface DismissPlan {
  dismissed: DomainEvent<'StatementLineDismissed'>;
  claim: PendingWrite;
}

/** Dismissing a queued line with a reason; its differences are kept in the record of the decision. */
export function decideDismiss(
  command: DismissCommand,
  state: { line: StatementLineView | undefined },
): Decided<DismissPlan> {
  const reason = dismissReasonOf(command);
  if (reason instanceof DomainError) return reason;
  const refusal = queuedLineRefusal(state.line);
  if (refusal) return refusal;
  const line = state.line!;
  return {
    dismissed: domainEvent('StatementLineDismissed', {
      lineId: line.lineId,
      bankAccountId: line.bankAccountId,
      reason,
      differences: line.differences,
      by: by(command.actor),
    }),
    claim: {
      streamId: STREAMS.statementLineClaim(line.lineId),
      expectedVersion: 'no_stream',
      events: [
        domainEvent('StatementLineClaimed', {
          lineId: line.lineId,
          bankAccountId: line.bankAccountId,
          decision: 'dismiss',
        }),
      ],
    },
  };
}
