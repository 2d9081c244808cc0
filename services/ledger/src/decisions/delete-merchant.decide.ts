import {
  DomainError,
  STREAMS,
  domainEvent,
  type ConfigResult,
  type DeleteMerchantCommand,
} from '@transfergate/contracts';
import type { Decided } from './decision.js';
import type { MerchantRecord, RecordDecision, RecordState } from './record-state.js';

/** Soft deletion: the whole record, deactivated and marked deleted; deleting it again changes nothing. */
export function decideDeleteMerchant(
  command: Pick<DeleteMerchantCommand, 'merchantId'>,
  state: RecordState<MerchantRecord> | undefined,
): Decided<RecordDecision<ConfigResult>> {
  const { merchantId } = command;
  if (!state) return new DomainError('not_found', `no merchant ${merchantId}`);
  if (state.deleted) return { writes: [], result: { id: merchantId, changed: false } };
  return {
    writes: [
      {
        streamId: STREAMS.merchant(merchantId),
        expectedVersion: state.version,
        events: [domainEvent('MerchantDeleted', { ...state.record, active: false, deleted: true })],
      },
    ],
    result: { id: merchantId, changed: true },
  };
}
