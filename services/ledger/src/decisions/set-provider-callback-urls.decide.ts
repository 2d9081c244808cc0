import { isDeepStrictEqual } from 'node:util';
import {
  DomainError,
  STREAMS,
  domainEvent,
  type ConfigResult,
  type SetProviderCallbackUrlsCommand,
} from '@transfergate/contracts';
import type { Decided } from './decision.js';
import type { ProviderRecord, RecordDecision, RecordState } from './record-state.js';

const FIELDS = ['callbackDeposit', 'callbackWithdrawal'] as const;

/**
 * A merchant's own callback URLs for one provider: each URL must pass the egress policy
 * (`refusalOf` answers why not, or undefined), null clears it (the infrastructure's applies again).
 * An event only when the record changes; a deleted provider is not found.
 */
export function decideSetProviderCallbackUrls(
  command: Pick<SetProviderCallbackUrlsCommand, 'providerId' | 'urls'>,
  state: RecordState<ProviderRecord> | undefined,
  context: { refusalOf: (url: string) => string | undefined },
): Decided<RecordDecision<ConfigResult>> {
  const { providerId, urls } = command;
  for (const field of FIELDS) {
    const url = urls[field];
    const refusal = url === null ? undefined : context.refusalOf(url);
    if (refusal) {
      return new DomainError('callback_url_refused', `${field} refused: ${refusal}`, {
        fields: [{ field, problem: refusal }],
      });
    }
  }
  if (!state || state.deleted) return new DomainError('not_found', `no provider ${providerId}`);
  const { callbackDeposit: _deposit, callbackWithdrawal: _withdrawal, ...rest } = state.record;
  const next: ProviderRecord = {
    ...rest,
    ...(urls.callbackDeposit !== null ? { callbackDeposit: urls.callbackDeposit } : {}),
    ...(urls.callbackWithdrawal !== null ? { callbackWithdrawal: urls.callbackWithdrawal } : {}),
  };
  if (isDeepStrictEqual(next, state.record)) return { writes: [], result: { id: providerId, changed: false } };
  return {
    writes: [
      {
        streamId: STREAMS.provider(providerId),
        expectedVersion: state.version,
        events: [domainEvent('ProviderConfigured', next)],
      },
    ],
    result: { id: providerId, changed: true },
  };
}
