import {
  DomainError,
  MAX_SECRET_OVERLAP_SECONDS,
  STREAMS,
  domainEvent,
  type ConfigResult,
  type RotateProviderSecretCommand,
} from '@transfergate/contracts';
import { MIN_API_SECRET_CHARS } from './change-provider.decide.js';
import type { Decided } from './decision.js';
import { withoutPreviousSecret, type ProviderRecord, type RecordDecision, type RecordState } from './record-state.js';

/** Whether the record's previous secret is still accepted at `nowMs`. */
export function overlapOpen(record: ProviderRecord, nowMs: number): boolean {
  if (record.previousApiSecretSealed === undefined || record.previousApiSecretUntil === undefined) return false;
  return nowMs < Date.parse(record.previousApiSecretUntil);
}

function refusalOfProvider(providerId: string, state: RecordState<ProviderRecord> | undefined) {
  if (!state) return new DomainError('not_found', `no provider ${providerId}`);
  if (state.deleted) return new DomainError('not_found', `provider ${providerId} is deleted`);
  return undefined;
}

/**
 * A rotation: the new secret (sealed by the handler, `sealedSecret`) becomes the current one; the one
 * it replaces stays accepted until now + overlapSeconds (none with 0: a hard cut). A previous secret
 * still in an earlier rotation's window is dropped, so at most two are ever in force. One
 * ProviderConfigured event, the whole record after the change, at the version read.
 */
export function decideRotateProviderSecret(
  command: Pick<RotateProviderSecretCommand, 'providerId' | 'apiSecret' | 'overlapSeconds'>,
  state: RecordState<ProviderRecord> | undefined,
  context: { sealedSecret: string; nowMs: number },
): Decided<RecordDecision<ConfigResult>> {
  const { providerId, apiSecret, overlapSeconds } = command;
  if (apiSecret.length < MIN_API_SECRET_CHARS) {
    return new DomainError('validation_failed', `apiSecret needs at least ${MIN_API_SECRET_CHARS} characters`);
  }
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_SECRET_OVERLAP_SECONDS) {
    return new DomainError(
      'validation_failed',
      `overlapSeconds must be an integer 0..${MAX_SECRET_OVERLAP_SECONDS} (7 days)`,
    );
  }
  const refused = refusalOfProvider(providerId, state);
  if (refused) return refused;
  const current = state!;
  const base = withoutPreviousSecret(current.record);
  const next: ProviderRecord =
    overlapSeconds === 0
      ? { ...base, apiSecretSealed: context.sealedSecret }
      : {
          ...base,
          apiSecretSealed: context.sealedSecret,
          previousApiSecretSealed: current.record.apiSecretSealed,
          previousApiSecretUntil: new Date(context.nowMs + overlapSeconds * 1_000).toISOString(),
        };
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

/**
 * Ends a rotation's overlap window early: the previous secret leaves the record. Nothing to write
 * (changed: false) when no window is open at `nowMs`; a window that ran out is left to lapse.
 */
export function decideEndProviderSecretOverlap(
  command: { providerId: string },
  state: RecordState<ProviderRecord> | undefined,
  context: { nowMs: number },
): Decided<RecordDecision<ConfigResult>> {
  const { providerId } = command;
  const refused = refusalOfProvider(providerId, state);
  if (refused) return refused;
  const current = state!;
  if (!overlapOpen(current.record, context.nowMs)) return { writes: [], result: { id: providerId, changed: false } };
  return {
    writes: [
      {
        streamId: STREAMS.provider(providerId),
        expectedVersion: current.version,
        events: [domainEvent('ProviderConfigured', withoutPreviousSecret(current.record))],
      },
    ],
    result: { id: providerId, changed: true },
  };
}
