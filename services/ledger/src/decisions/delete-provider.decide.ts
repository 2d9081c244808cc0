import {
  DomainError,
  STREAMS,
  domainEvent,
  type ConfigResult,
  type DeleteProviderCommand,
} from '@transfergate/contracts';
import type { Decided } from './decision.js';
import type { ProviderRecord, RecordDecision, RecordState } from './record-state.js';

/** Soft deletion: the whole record (secret still sealed), deactivated and marked deleted; once. */
export function decideDeleteProvider(
  command: Pick<DeleteProviderCommand, 'providerId'>,
  state: RecordState<ProviderRecord> | undefined,
): Decided<RecordDecision<ConfigResult>> {
  const { providerId } = command;
  if (!state) return new DomainError('not_found', `no provider ${providerId}`);
  if (state.deleted) return { writes: [], result: { id: providerId, changed: false } };
  return {
    writes: [
      {
        streamId: STREAMS.provider(providerId),
        expectedVersion: state.version,
        events: [domainEvent('ProviderDeleted', { ...state.record, active: false, deleted: true })],
      },
    ],
    result: { id: providerId, changed: true },
  };
}
