import { DomainError, domainEvent, type DecideAmountChangeCommand } from '@transfergate/contracts';
import type { TransactionAggregate } from '../domain/transaction.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { amountChangeWrites, type ChangeAmountContext } from './change-amount.decide.js';
import { by, isRefusal, transactionWrite, type Decided } from './decision.js';
import { amountRangeRefusal } from './merchant-limits.js';
import { moveRefusal } from '../domain/transaction.js';

/** Who asked or decides, as a request records it: the operator's id, or the source without one. */
export function requesterOf(actor: DecideAmountChangeCommand['input']['actor']): string {
  return actor.operatorId ?? actor.source;
}

/** The refusal of a decision's input that needs nothing loaded: a rejection names its reason. */
export function amountChangeDecisionInputRefusal(command: DecideAmountChangeCommand['input']): DomainError | undefined {
  if (command.decision === 'reject' && !command.reason?.trim()) {
    return new DomainError('validation_failed', 'invalid request: reason: a rejection needs a reason', {
      fields: [{ field: 'reason', problem: 'required' }],
    });
  }
  return undefined;
}

/**
 * A second operator decides an amount change that waits (four eyes). Refused when none waits under
 * that request id (`amount_change_not_pending`: decided, or never asked), and when the decider is
 * the operator who asked (`four_eyes_same_operator`). A rejection records AmountChangeRejected and
 * the amount stays. An approval makes the change as decideChangeAmount would (the transaction still
 * open, the amount in the merchant's range, a withdrawal's reservation fitting the balance), with
 * AmountChangeApproved after it in the same append at the version read: of two approvals at once,
 * one is appended and the other, decided again on the stream that now holds it, is refused.
 */
export function decideAmountChangeDecision(
  command: DecideAmountChangeCommand['input'],
  state: TransactionAggregate,
  context: ChangeAmountContext,
): Decided<PendingWrite[]> {
  const invalid = amountChangeDecisionInputRefusal(command);
  if (invalid) return invalid;
  const view = state.view;
  const pending = view.pendingAmountChange;
  if (!pending || pending.requestId !== command.requestId) {
    return new DomainError(
      'amount_change_not_pending',
      `TG-${view.number}: no amount change waits under this request`,
      {
        requestId: command.requestId,
      },
    );
  }
  if (pending.requestedBy === requesterOf(command.actor)) {
    return new DomainError(
      'four_eyes_same_operator',
      `TG-${view.number}: the amount change needs a second operator; the operator who asked for it cannot decide it`,
    );
  }
  const decided = {
    transactionId: view.transactionId,
    requestId: pending.requestId,
    fromKurus: pending.fromKurus,
    toKurus: pending.toKurus,
    requestedBy: pending.requestedBy,
  };
  if (command.decision === 'reject') {
    return [
      transactionWrite(view.transactionId, state.version, [
        domainEvent('AmountChangeRejected', { ...decided, reason: command.reason!.trim(), by: by(command.actor) }),
      ]),
    ];
  }
  const refusal = moveRefusal(view, 'change-amount');
  if (refusal) return refusal;
  const toKurus = BigInt(pending.toKurus);
  // The merchant's range may have changed since the request: checked again now.
  const outOfRange = context.merchant && amountRangeRefusal(context.merchant, toKurus);
  if (outOfRange) return outOfRange;
  const writes = amountChangeWrites(
    { transactionId: view.transactionId, amountKurus: toKurus, actor: command.actor },
    state,
    context,
  );
  if (isRefusal(writes)) return writes;
  const approved = domainEvent('AmountChangeApproved', { ...decided, by: by(command.actor) });
  return writes.map((write) =>
    write.streamId === writes[0]!.streamId ? { ...write, events: [...write.events, approved] } : write,
  );
}
