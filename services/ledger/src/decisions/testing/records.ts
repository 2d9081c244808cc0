import type { MerchantRecord, OperatorRecord, ProviderRecord, RecordState } from '../record-state.js';
import { merchantRecord } from './given-when-then.js';

/** given: a record stream whose last event holds `record` (deleted or not) at `version`. */
export function givenRecord<T>(record: T, version = 1, deleted = false): RecordState<T> {
  return { record, deleted, version };
}

export const merchant = (change: Partial<MerchantRecord> = {}, version = 1, deleted = false) =>
  givenRecord(merchantRecord(change), version, deleted);

export function providerRecord(change: Partial<ProviderRecord> = {}): ProviderRecord {
  return {
    providerId: 'p-1',
    number: 1,
    merchantId: 'm-1',
    infrastructureId: 'i-1',
    name: 'Shop H2H',
    apiKey: 'key-1',
    apiSecretSealed: 'sealed-1',
    apiAllowedIps: [],
    active: true,
    ...change,
  };
}

export function operatorRecord(change: Partial<OperatorRecord> = {}): OperatorRecord {
  return { operatorId: 'op-2', username: 'deniz', passwordHash: 'hash-1', role: 'operator', active: true, ...change };
}
