import { EVENT_CATALOG, STREAMS, type EventData } from '@transfergate/contracts';
import { PostgresEventStore, type RecordedEvent, type SqlDatabase, type SqlExecutor } from '@transfergate/event-store';
import type { SecretBox } from '@transfergate/security';
import { webhookIdFor } from '../delivery/webhook-signing.js';
import { buildCallbackBody, type CallbackFacts, type CallbackFormat } from './callback-bodies.js';

/** The events that make callbacks; the dispatcher's consumer reads no other (ConsumerOptions.types). */
export const CALLBACK_EVENT_TYPES: readonly string[] = ['TransactionApproved', 'TransactionRejected'];
const FINAL_EVENTS = new Set(CALLBACK_EVENT_TYPES);

/** The event store read through the consumer's transaction (the only connection PGlite lends it). */
function storeOver(tx: SqlExecutor): PostgresEventStore {
  const unsupported = () => {
    throw new Error('read-only view of the consumer transaction');
  };
  const db: SqlDatabase = {
    kind: 'postgres',
    query: (sql, params) => tx.query(sql, params),
    transaction: unsupported,
    exec: unsupported,
    close: unsupported,
  };
  return new PostgresEventStore(db);
}

/** The last event of `types` in a stream (a record's current configuration), if any. */
function lastOf(events: readonly RecordedEvent[] | undefined, types: readonly string[]): RecordedEvent | undefined {
  return events?.filter((event) => types.includes(event.type)).at(-1);
}

interface NewDelivery {
  deliveryId: string;
  eventId: string;
  transactionId: string;
  number: number;
  externalId: string;
  type: 'deposit' | 'withdrawal';
  outcome: 'approved' | 'rejected';
  providerId: string;
  infrastructureId: string;
  format: CallbackFormat | 'unknown';
  targetUrl: string;
  body: string;
  /** Set when the callback cannot be built: the delivery is recorded as failed, never sent. */
  problem?: string;
}

/**
 * The consumer's handler: for every TransactionApproved / TransactionRejected, one delivery row in
 * the same transaction as the consumer's checkpoint, so each final transaction is enqueued exactly
 * once (a replayed batch hits the unique keys and adds nothing). The body, the target URL and the
 * format are taken from the transaction's stream, its infrastructure and its provider (the merchant's own
 * callback URLs) as they are now and frozen.
 * Answers how many deliveries became due.
 *
 * A batch costs a fixed number of statements whatever its size: the transactions' streams in one
 * read, their infrastructures' in another, the providers' in a third, and one
 * insert of every row.
 */
export async function enqueueCallbacks(events: RecordedEvent[], tx: SqlExecutor, box: SecretBox): Promise<number> {
  const finals = events.filter((event) => FINAL_EVENTS.has(event.type) && event.streamId.startsWith('txn-'));
  if (finals.length === 0) return 0;
  const store = storeOver(tx);
  const histories = await store.readStreams(finals.map((event) => event.streamId));
  const decided = finals.flatMap((event) => {
    const decision = decisionOf(event, histories.get(event.streamId)!);
    return decision ? [decision] : [];
  });
  const infrastructures = await store.readStreams(
    decided.map(({ origin }) => STREAMS.infrastructure(origin.infrastructureId)),
  );
  const configs = new Map(
    [...infrastructures].map(([streamId, stream]) => {
      const last = lastOf(stream, ['InfrastructureConfigured']);
      return [streamId, last && EVENT_CATALOG.InfrastructureConfigured.schema.parse(last.data)] as const;
    }),
  );
  // Every provider: its own callback URLs (set in the portal) and, for MD5, its secret.
  const providers = await store.readStreams(decided.map(({ origin }) => STREAMS.provider(origin.providerId)));
  const deliveries = decided.map((decision) =>
    describeDelivery(
      decision,
      configs.get(STREAMS.infrastructure(decision.origin.infrastructureId)),
      providers.get(STREAMS.provider(decision.origin.providerId)),
      box,
    ),
  );
  return insertDeliveries(tx, deliveries);
}

/** One statement for the batch's rows; answers how many new ones are due (not already there, not failed). */
async function insertDeliveries(tx: SqlExecutor, deliveries: NewDelivery[]): Promise<number> {
  if (deliveries.length === 0) return 0;
  const rows = deliveries.map((d) => ({
    delivery_id: d.deliveryId,
    event_id: d.eventId,
    transaction_id: d.transactionId,
    transaction_number: d.number,
    external_id: d.externalId,
    type: d.type,
    outcome: d.outcome,
    provider_id: d.providerId,
    infrastructure_id: d.infrastructureId,
    format: d.format,
    target_url: d.targetUrl,
    body: d.body,
    state: d.problem ? 'failed' : 'pending',
    last_error: d.problem ?? null,
  }));
  const { rows: inserted } = await tx.query<{ state: string }>(
    `insert into cb_deliveries (delivery_id, event_id, transaction_id, transaction_number, external_id, type, outcome,
       provider_id, infrastructure_id, format, target_url, body, state, due_at, last_error)
     select x.delivery_id, x.event_id, x.transaction_id, x.transaction_number, x.external_id, x.type, x.outcome,
       x.provider_id, x.infrastructure_id, x.format, x.target_url, x.body, x.state,
       case when x.state = 'pending' then now() end, x.last_error
     from jsonb_to_recordset($1::jsonb) as x(delivery_id uuid, event_id uuid, transaction_id uuid,
       transaction_number bigint, external_id text, type text, outcome text, provider_id text, infrastructure_id text,
       format text, target_url text, body text, state text, last_error text)
     on conflict do nothing returning state`,
    [JSON.stringify(rows)],
  );
  return inserted.filter((row) => row.state === 'pending').length;
}

interface Decision {
  event: RecordedEvent;
  /** The transaction's events up to the final one. */
  history: RecordedEvent[];
  origin: EventData<'DepositRequested'> | EventData<'WithdrawalRequested'>;
  type: 'deposit' | 'withdrawal';
}

/** The final event with its transaction's request; undefined for a stream that is not a deposit's or a withdrawal's. */
function decisionOf(event: RecordedEvent, stream: RecordedEvent[]): Decision | undefined {
  const history = stream.filter((e) => e.streamVersion <= event.streamVersion);
  const first = history[0];
  if (!first || (first.type !== 'DepositRequested' && first.type !== 'WithdrawalRequested')) return undefined;
  return first.type === 'DepositRequested'
    ? { event, history, origin: EVENT_CATALOG.DepositRequested.schema.parse(first.data), type: 'deposit' }
    : { event, history, origin: EVENT_CATALOG.WithdrawalRequested.schema.parse(first.data), type: 'withdrawal' };
}

function describeDelivery(
  { event, history, origin, type }: Decision,
  infra: EventData<'InfrastructureConfigured'> | undefined,
  providerStream: RecordedEvent[] | undefined,
  box: SecretBox,
): NewDelivery {
  const outcome = event.type === 'TransactionApproved' ? 'approved' : 'rejected';

  let amountKurus = BigInt(origin.amountKurus);
  let reason: string | undefined;
  for (const e of history) {
    if (e.type === 'TransactionAmountChanged') {
      amountKurus = BigInt(EVENT_CATALOG.TransactionAmountChanged.schema.parse(e.data).toKurus);
    }
  }
  if (event.type === 'TransactionApproved') {
    amountKurus = BigInt(EVENT_CATALOG.TransactionApproved.schema.parse(event.data).amountKurus);
  } else {
    reason = EVENT_CATALOG.TransactionRejected.schema.parse(event.data).reason;
  }

  const delivery: NewDelivery = {
    deliveryId: webhookIdFor(event.eventId),
    eventId: event.eventId,
    transactionId: origin.transactionId,
    number: origin.number,
    externalId: origin.externalId,
    type,
    outcome,
    providerId: origin.providerId,
    infrastructureId: origin.infrastructureId,
    format: 'unknown',
    targetUrl: '',
    body: '',
  };

  if (!infra) return { ...delivery, problem: `infrastructure ${origin.infrastructureId} not found` };
  delivery.format = infra.callbackFormat;
  const providerEvent = lastOf(providerStream, ['ProviderConfigured', 'ProviderDeleted']);
  const provider = providerEvent ? EVENT_CATALOG.ProviderConfigured.schema.parse(providerEvent.data) : undefined;
  // The merchant's own URL for this provider, where it set one, else the infrastructure's.
  delivery.targetUrl =
    (type === 'deposit' ? provider?.callbackDeposit : provider?.callbackWithdrawal) ??
    (type === 'deposit' ? infra.callbackDeposit : infra.callbackWithdrawal);

  const facts: CallbackFacts = {
    type,
    outcome,
    number: origin.number,
    externalId: origin.externalId,
    amountKurus,
    customer: origin.customer,
    echo: origin.echo,
    ...(reason !== undefined ? { reason } : {}),
    decidedAt: event.createdAt,
  };
  let sealed: string | undefined;
  if (infra.callbackFormat === 'md5') {
    sealed = provider?.apiSecretSealed;
    if (!sealed)
      return { ...delivery, problem: `provider ${origin.providerId} not found (MD5 signature needs its secret)` };
  }
  try {
    delivery.body = JSON.stringify(buildCallbackBody(infra.callbackFormat, facts, () => box.open(sealed!)));
  } catch (error) {
    return { ...delivery, problem: `callback body could not be built: ${(error as Error).message}`.slice(0, 500) };
  }
  if (!/^https?:\/\/\S+$/i.test(delivery.targetUrl)) {
    return { ...delivery, problem: `no registered http(s) callback URL for ${type}s on the infrastructure` };
  }
  return delivery;
}
