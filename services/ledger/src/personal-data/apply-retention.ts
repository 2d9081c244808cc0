import { EVENT_CATALOG, STREAMS, type EventData } from '@transfergate/contracts';
import { newEventId, type EventStore, type PersonalDataCodec, type SqlDatabase } from '@transfergate/event-store';
import { decideApplyRetention } from '../decisions/apply-retention.decide.js';
import { eventsUnder, plainValuesOf, shredAndScrub, transactionIdsOf } from './erase-customer.js';

/** The default retention period: MASAK 5549 art. 8 keeps transaction records for eight years. */
export const DEFAULT_RETENTION_YEARS = 8;

/**
 * One retention pass: finds the customers whose last transaction is older than their period (the
 * longest of their merchants', else the default) and who are on no legal hold, records the pass as
 * RetentionApplied, then destroys their keys and scrubs the copies as an erasure does. Returns what
 * it recorded, or null when nobody was due; a caller runs it again while it erases a full batch.
 */
export async function applyRetention(
  db: SqlDatabase,
  store: EventStore,
  codec: PersonalDataCodec,
  options: { runId: string; asOf: Date; defaultYears?: number },
): Promise<EventData<'RetentionApplied'> | null> {
  const defaultYears = options.defaultYears ?? DEFAULT_RETENTION_YEARS;
  const due = await codec.keys.subjectsPastRetention(options.asOf, defaultYears);
  const keyRefs = due.map((d) => d.keyRef);
  const events = keyRefs.length > 0 ? await eventsUnder(db, keyRefs) : [];
  const transactionIds = transactionIdsOf(events);
  const decided = decideApplyRetention(
    { runId: options.runId, asOfMs: options.asOf.getTime(), defaultYears },
    {
      subjectIds: due.map((d) => d.subjectId),
      transactions: transactionIds.length,
      statementLines: events.filter((e) => e.type === 'StatementLineImported').length,
    },
  );
  if (!decided) return null;
  const plainValues = await plainValuesOf(codec, events);
  await store.append(
    STREAMS.erasures(),
    [
      {
        eventId: newEventId(),
        type: decided.type,
        schemaVersion: EVENT_CATALOG.RetentionApplied.version,
        data: decided.data,
        metadata: { actor: 'retention', source: 'retention' },
      },
    ],
    'any',
  );
  await shredAndScrub(db, codec, {
    subjectIds: decided.data.subjectIds,
    keyRefs,
    transactionIds,
    plainValues,
    reason: `retention: ${defaultYears} years (or the merchant's period) after the last transaction`,
    erasedBy: 'retention',
    // A customer who wrote since the listing keeps the key (and the new fields under it).
    lastWrittenAt: new Map(due.map((d) => [d.subjectId, d.lastWrittenAt])),
  });
  return decided.data;
}
