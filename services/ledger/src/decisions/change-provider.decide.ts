import { isDeepStrictEqual } from 'node:util';
import {
  DomainError,
  STREAMS,
  domainEvent,
  type ChangeProviderCommand,
  type ConfigResult,
} from '@transfergate/contracts';
import type { Decided } from './decision.js';
import {
  withoutPreviousSecret,
  type MerchantRecord,
  type ProviderRecord,
  type RecordDecision,
  type RecordState,
} from './record-state.js';

/** The shortest API secret accepted. */
export const MIN_API_SECRET_CHARS = 8;

/** The refusal of a change's own fields (a too short secret), checked before anything is read. */
export function changeProviderInputRefusal(command: Pick<ChangeProviderCommand, 'change'>): DomainError | undefined {
  const { apiSecret } = command.change;
  if (apiSecret !== undefined && apiSecret.length < MIN_API_SECRET_CHARS) {
    return new DomainError('validation_failed', 'apiSecret needs at least 8 characters');
  }
  return undefined;
}

/** What the handler loads for a provider change. */
export interface ChangeProviderState {
  provider: RecordState<ProviderRecord> | undefined;
  /** The merchant the change moves the provider to, when it names one. */
  merchant?: RecordState<MerchantRecord> | undefined;
  /** Whether the infrastructure the change names exists, when it names one. */
  infrastructureExists?: boolean;
}

/**
 * A partial change to a provider: the named fields replace the record's (a new secret arrives
 * sealed, `sealedSecret`), `sandbox` is set or cleared only when given. The merchant it names must
 * exist and not be deleted, the infrastructure must exist. An event only when the record changes;
 * a deleted provider saved again is restored, even with unchanged fields.
 */
export function decideChangeProvider(
  command: Pick<ChangeProviderCommand, 'providerId' | 'change'>,
  state: ChangeProviderState,
  context: { sealedSecret: string | undefined },
): Decided<RecordDecision<ConfigResult>> {
  const invalid = changeProviderInputRefusal(command);
  if (invalid) return invalid;
  const { providerId, change } = command;
  if (change.merchantId !== undefined) {
    if (!state.merchant) return new DomainError('not_found', `no merchant ${change.merchantId}`);
    if (state.merchant.deleted) return new DomainError('not_found', `merchant ${change.merchantId} is deleted`);
  }
  if (change.infrastructureId !== undefined && !state.infrastructureExists) {
    return new DomainError('not_found', `no infrastructure ${change.infrastructureId}`);
  }
  const current = state.provider;
  if (!current) return new DomainError('not_found', `no provider ${providerId}`);
  const sealed = context.sealedSecret;
  // A secret set here is a hard cut: a rotation's previous secret leaves with it.
  const kept = sealed === undefined ? current.record : withoutPreviousSecret(current.record);
  const { sandbox: _sandbox, ...unflagged } = kept;
  const next: ProviderRecord = {
    ...(change.sandbox === undefined ? kept : unflagged),
    ...(change.sandbox ? { sandbox: true as const } : {}),
    ...(change.merchantId !== undefined ? { merchantId: change.merchantId } : {}),
    ...(change.infrastructureId !== undefined ? { infrastructureId: change.infrastructureId } : {}),
    ...(change.apiAllowedIps !== undefined ? { apiAllowedIps: change.apiAllowedIps } : {}),
    ...(change.active !== undefined ? { active: change.active } : {}),
    ...(sealed !== undefined ? { apiSecretSealed: sealed } : {}),
  };
  if (!current.deleted && isDeepStrictEqual(next, current.record)) {
    return { writes: [], result: { id: providerId, changed: false } };
  }
  return {
    writes: [
      {
        streamId: STREAMS.provider(providerId),
        expectedVersion: current.version,
        events: [domainEvent('ProviderConfigured', next)],
      },
    ],
    result: { id: providerId, changed: true },
  };
}
