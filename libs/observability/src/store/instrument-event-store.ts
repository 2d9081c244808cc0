import type {
  AppendOptions,
  AppendResult,
  EventStore,
  NewEvent,
  SqlDatabase,
  StreamWrite,
} from '@transfergate/event-store';
import type { Logger } from 'pino';
import type { TransfergateMetrics } from '../metrics/transfergate-metrics.js';

const TRANSACTION_STREAM_PREFIX = 'txn-';

type Appender = Pick<EventStore, 'append' | 'appendMany'> & { database: SqlDatabase };

/**
 * Wraps a store's appends from the outside (the store itself stays free of metrics and logging):
 * - times each append into `transfergate_event_store_append_duration_seconds`;
 * - logs one line per stream written (the ledger is the only writer of events), with the request id
 *   the ledger stamped on its events' metadata (ActorRef.requestId);
 * - on a TransactionApproved, observes created → approved from the stream's own events.
 * Mutates and returns `store` so every holder of the instance sees the wrapped methods.
 */
export function instrumentEventStore<S extends Appender>(store: S, metrics: TransfergateMetrics, logger: Logger): S {
  const appendMany = store.appendMany.bind(store);
  const instrumented = async (writes: StreamWrite[], options?: AppendOptions): Promise<AppendResult[]> => {
    const stop = metrics.eventStoreAppendDuration.startTimer();
    let results: AppendResult[];
    try {
      results = await appendMany(writes, options);
    } catch (error) {
      stop({ outcome: (error as Error)?.name === 'WrongExpectedVersionError' ? 'conflict' : 'error' });
      throw error;
    }
    stop({ outcome: 'ok' });
    if (results.length !== writes.length) {
      throw new Error(`event store answered ${results.length} results for ${writes.length} writes`);
    }
    // The line's fields are built only when it is written: at a level above info (the bench's, and
    // ops' choice under load) they were an object, a spread and an array per stream for nothing.
    const logAppends = logger.isLevelEnabled('info');
    for (const [index, write] of writes.entries()) {
      if (results[index]?.idempotentReplay) continue;
      if (logAppends) {
        const requestId = write.events[0]?.metadata?.requestId;
        logger.info(
          {
            ...(typeof requestId === 'string' ? { requestId } : {}),
            streamId: write.streamId,
            version: results[index]?.nextVersion,
            events: write.events.map((event) => event.type),
          },
          'events appended',
        );
      }
      for (const event of write.events) if (event.type === 'RiskRuleHit') countRiskHits(metrics, event);
      if (write.streamId.startsWith(TRANSACTION_STREAM_PREFIX) && write.events.some(isApproval)) {
        void observeApproval(store.database, metrics, write.streamId).catch((error: unknown) =>
          logger.warn({ streamId: write.streamId, err: error }, 'approval latency not observed'),
        );
      }
    }
    return results;
  };
  store.appendMany = instrumented;
  // The contract defines append as a one-stream appendMany; routing it here times it exactly once.
  store.append = async (streamId, events, expectedVersion) =>
    (await instrumented([{ streamId, events, expectedVersion }]))[0]!;
  return store;
}

function countRiskHits(metrics: TransfergateMetrics, event: NewEvent): void {
  const hits = (event.data as { hits?: Array<{ ruleId: string; action: string }> }).hits ?? [];
  for (const hit of hits) metrics.riskHits.inc({ rule: hit.ruleId, action: hit.action });
}

function isApproval(event: NewEvent): boolean {
  return event.type === 'TransactionApproved';
}

async function observeApproval(db: SqlDatabase, metrics: TransfergateMetrics, streamId: string): Promise<void> {
  // Both timestamps are the events' own (the database clock), not this process's.
  const { rows } = await db.query<{ type: string; seconds: string }>(
    `select (select type from es_events where stream_id = $1 and stream_version = 1) as type,
       extract(epoch from (
         (select max(created_at) from es_events where stream_id = $1 and type = 'TransactionApproved') -
         (select created_at from es_events where stream_id = $1 and stream_version = 1)))::text as seconds`,
    [streamId],
  );
  const row = rows[0];
  if (!row?.type || row.seconds === null) return;
  const type =
    row.type === 'DepositRequested' ? 'deposit' : row.type === 'WithdrawalRequested' ? 'withdrawal' : 'other';
  metrics.approvalLatency.observe({ type }, Math.max(0, Number(row.seconds)));
}
