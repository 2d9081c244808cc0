import { isDeepStrictEqual } from 'node:util';
import {
  DomainError,
  STREAMS,
  domainEvent,
  type MerchantProvidersResult,
  type UpdateMerchantProvidersCommand,
} from '@transfergate/contracts';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import type { Decided } from './decision.js';
import type { MerchantRecord, ProviderRecord, RecordDecision, RecordState } from './record-state.js';

/** What the handler loads: the merchant and every provider listed or linked to it now, from their streams. */
export interface MerchantProvidersState {
  merchant: RecordState<MerchantRecord> | undefined;
  /** By provider id: listed ones and the merchant's current ones; undefined when the stream does not exist. */
  providers: ReadonlyMap<string, RecordState<ProviderRecord> | undefined>;
}

/**
 * The merchant's providers become exactly the listed ones: a listed provider moves to the merchant
 * and is activated, a provider of the merchant that is not listed is deactivated (and stays the
 * merchant's). Deleted providers are left alone, and naming one is refused. One write per provider
 * that changes, each at the version it was read at, in provider id order.
 */
export function decideUpdateMerchantProviders(
  command: Pick<UpdateMerchantProvidersCommand, 'merchantId' | 'providerIds'>,
  state: MerchantProvidersState,
): Decided<RecordDecision<MerchantProvidersResult>> {
  const { merchantId } = command;
  if (!state.merchant) return new DomainError('not_found', `no merchant ${merchantId}`);
  if (state.merchant.deleted) return new DomainError('not_found', `merchant ${merchantId} is deleted`);
  const listed = new Set(command.providerIds);
  const writes: PendingWrite[] = [];
  for (const providerId of [...state.providers.keys()].sort()) {
    const isListed = listed.has(providerId);
    const provider = state.providers.get(providerId);
    if (!provider) return new DomainError('not_found', `no provider ${providerId}`);
    if (provider.deleted) {
      if (isListed) return new DomainError('not_found', `provider ${providerId} is deleted`);
      continue;
    }
    let next: ProviderRecord;
    if (isListed) next = { ...provider.record, merchantId, active: true };
    else if (provider.record.merchantId === merchantId) next = { ...provider.record, active: false };
    else continue;
    if (isDeepStrictEqual(next, provider.record)) continue;
    writes.push({
      streamId: STREAMS.provider(providerId),
      expectedVersion: provider.version,
      events: [domainEvent('ProviderConfigured', next)],
    });
  }
  const changedProviders = writes.map((w) => w.streamId.slice('provider-'.length));
  return { writes, result: { id: merchantId, changed: writes.length > 0, changedProviders } };
}
