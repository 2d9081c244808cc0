import { EVENT_CATALOG, type EventData } from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';
import type { PendingWrite } from '../persistence/ledger-repository.js';

export type MerchantRecord = EventData<'MerchantConfigured'>;
export type ProviderRecord = EventData<'ProviderConfigured'>;
export type OperatorRecord = EventData<'OperatorConfigured'>;

/**
 * A back-office record's state: every event of its stream carries the whole record, so the state is
 * the last event's record, whether it deleted the record, and the stream's version.
 */
export interface RecordState<T> {
  record: T;
  deleted: boolean;
  version: number;
}

/** What a back-office decision answers: the writes (none when nothing changes) and the command's result. */
export interface RecordDecision<R> {
  writes: PendingWrite[];
  result: R;
}

/** The merchant stream's evolve (MerchantConfigured, MerchantDeleted). */
export function evolveMerchant(_state: RecordState<MerchantRecord> | undefined, event: RecordedEvent) {
  return {
    record: EVENT_CATALOG.MerchantConfigured.schema.parse(event.data) as MerchantRecord,
    deleted: event.type === 'MerchantDeleted',
    version: event.streamVersion,
  };
}

/** The provider stream's evolve (ProviderConfigured, ProviderDeleted). */
export function evolveProvider(_state: RecordState<ProviderRecord> | undefined, event: RecordedEvent) {
  return {
    record: EVENT_CATALOG.ProviderConfigured.schema.parse(event.data) as ProviderRecord,
    deleted: event.type === 'ProviderDeleted',
    version: event.streamVersion,
  };
}

/** The operator stream's evolve (OperatorConfigured; operators are deactivated, never deleted). */
export function evolveOperator(_state: RecordState<OperatorRecord> | undefined, event: RecordedEvent) {
  return {
    record: EVENT_CATALOG.OperatorConfigured.schema.parse(event.data) as OperatorRecord,
    deleted: false,
    version: event.streamVersion,
  };
}

/** A provider record without a rotation's previous secret (no overlap window in force). */
export function withoutPreviousSecret(record: ProviderRecord): ProviderRecord {
  const { previousApiSecretSealed: _sealed, previousApiSecretUntil: _until, ...rest } = record;
  return rest;
}
