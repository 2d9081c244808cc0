import { DomainError, STREAMS, domainEvent, type RevealProviderSecretCommand } from '@transfergate/contracts';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import type { Decided } from './decision.js';
import type { ProviderRecord, RecordState } from './record-state.js';

/**
 * Revealing a provider's secret is recorded first (who and from where travel in the append's
 * metadata; the event names the provider and its key, never the secret). A deleted provider's secret
 * is not revealed. Reveals never conflict, so the access stream is appended at any version.
 */
export function decideRevealProviderSecret(
  command: Pick<RevealProviderSecretCommand, 'providerId'>,
  state: RecordState<ProviderRecord> | undefined,
): Decided<PendingWrite[]> {
  const { providerId } = command;
  if (!state) return new DomainError('not_found', `no provider ${providerId}`);
  if (state.deleted) return new DomainError('not_found', `provider ${providerId} is deleted`);
  return [
    {
      streamId: STREAMS.providerSecretAccess(providerId),
      expectedVersion: 'any',
      events: [domainEvent('ProviderSecretRevealed', { providerId, apiKey: state.record.apiKey })],
    },
  ];
}
