import {
  DomainError,
  STREAMS,
  domainEvent,
  type MerchantActiveResult,
  type SetMerchantActiveCommand,
} from '@transfergate/contracts';
import type { Decided } from './decision.js';
import type { MerchantRecord, RecordDecision, RecordState } from './record-state.js';

/**
 * Turning a merchant on or off (`active` undefined toggles it); a deleted merchant only with
 * `restore`, which brings it back whatever its flag was. An event only when something changes.
 */
export function decideSetMerchantActive(
  command: Pick<SetMerchantActiveCommand, 'merchantId' | 'active' | 'restore'>,
  state: RecordState<MerchantRecord> | undefined,
): Decided<RecordDecision<MerchantActiveResult>> {
  const { merchantId } = command;
  if (!state) return new DomainError('not_found', `no merchant ${merchantId}`);
  if (state.deleted && !command.restore) return new DomainError('not_found', `merchant ${merchantId} is deleted`);
  const next = command.active ?? !state.record.active;
  if (!state.deleted && state.record.active === next) {
    return { writes: [], result: { id: merchantId, changed: false, active: next } };
  }
  return {
    writes: [
      {
        streamId: STREAMS.merchant(merchantId),
        expectedVersion: state.version,
        events: [domainEvent('MerchantConfigured', { ...state.record, active: next })],
      },
    ],
    result: { id: merchantId, changed: true, active: next },
  };
}
