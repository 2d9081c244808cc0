import {
  DomainError,
  MAX_CALLBACKS_PER_RECOVERY,
  STREAMS,
  domainEvent,
  type RecordCallbackRecoveryCommand,
} from '@transfergate/contracts';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import type { Decided } from './decision.js';

/**
 * A merchant's recovery of failed callbacks is recorded once, before anything is resent: one event
 * naming the range and the callbacks (at most MAX_CALLBACKS_PER_RECOVERY), who and from where in the
 * append's metadata. Nothing to resend, nothing to record. Recoveries never conflict, so the stream is
 * appended at any version.
 */
export function decideRecordCallbackRecovery(
  command: Pick<RecordCallbackRecoveryCommand, 'input'>,
): Decided<PendingWrite[]> {
  const { merchantId, from, to, deliveryIds } = command.input;
  if (!(Date.parse(from) < Date.parse(to))) return new DomainError('validation_failed', 'from must be before to');
  if (deliveryIds.length > MAX_CALLBACKS_PER_RECOVERY) {
    return new DomainError(
      'validation_failed',
      `a recovery resends at most ${MAX_CALLBACKS_PER_RECOVERY} callbacks; narrow the time range`,
    );
  }
  if (deliveryIds.length === 0) return [];
  return [
    {
      streamId: STREAMS.callbackRecovery(merchantId),
      expectedVersion: 'any',
      events: [domainEvent('CallbacksRecoveryRequested', { merchantId, from, to, deliveryIds })],
    },
  ];
}
