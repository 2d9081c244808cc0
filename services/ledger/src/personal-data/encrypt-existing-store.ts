import { EVENT_CATALOG, STREAMS, domainEvent, type EventType } from '@transfergate/contracts';
import {
  encryptStoreInPlace,
  newEventId,
  type EventStore,
  type InPlaceEncryption,
  type PersonalDataCodec,
  type SqlDatabase,
} from '@transfergate/event-store';

/** The event types with personal fields, from the catalogue's declarations. */
export const PERSONAL_EVENT_TYPES: readonly EventType[] = (Object.keys(EVENT_CATALOG) as EventType[]).filter(
  (type) => EVENT_CATALOG[type].personalData.personal.length > 0,
);

/**
 * The one-time upgrade of a store written before personal fields were encrypted, with every
 * process stopped (docs/operations.md): encrypts them in place, chains the rewritten streams again
 * and records the old heads' digest in a PersonalDataEncrypted event of the new chain. Run again,
 * it finds nothing left to encrypt and records nothing.
 */
export async function encryptExistingStore(
  db: SqlDatabase,
  /** The store of `db`, unwrapped (the record names no customer). */
  store: EventStore,
  codec: PersonalDataCodec,
  epoch: string,
): Promise<InPlaceEncryption> {
  const result = await encryptStoreInPlace(db, codec, PERSONAL_EVENT_TYPES, epoch);
  if (result.eventsRewritten === 0) return result;
  const event = domainEvent('PersonalDataEncrypted', {
    epoch: result.epoch,
    eventsRewritten: result.eventsRewritten,
    streamsRechained: result.streamsRechained,
    oldHeadsSha256: result.oldHeadsSha256,
  });
  await store.append(
    STREAMS.storeUpgrade(epoch),
    [
      {
        eventId: newEventId(),
        type: event.type,
        schemaVersion: EVENT_CATALOG.PersonalDataEncrypted.version,
        data: event.data,
        metadata: { actor: 'upgrade', source: 'upgrade' },
      },
    ],
    'any',
  );
  return result;
}
