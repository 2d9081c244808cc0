import { EVENT_CATALOG, STREAMS } from '@transfergate/contracts';
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

async function lastOf(
  store: PostgresEventStore,
  streamId: string,
  types: string[],
): Promise<RecordedEvent | undefined> {
  const events = await store.readStream(streamId);
  return events.filter((event) => types.includes(event.type)).at(-1);
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
 * format are taken from the transaction's stream and its infrastructure as they are now and frozen.
 * Answers how many deliveries became due.
 */
export async function enqueueCallbacks(events: RecordedEvent[], tx: SqlExecutor, box: SecretBox): Promise<number> {
  let due = 0;
  for (const event of events) {
    if (!FINAL_EVENTS.has(event.type) || !event.streamId.startsWith('txn-')) continue;
    const delivery = await describeDelivery(event, storeOver(tx), box);
    if (!delivery) continue;
    const { rows } = await tx.query(
      `insert into cb_deliveries (delivery_id, event_id, transaction_id, transaction_number, external_id, type, outcome,
         provider_id, infrastructure_id, format, target_url, body, state, due_at, last_error)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
         case when $13 = 'pending' then now() end, $14)
       on conflict do nothing returning 1`,
      [
        delivery.deliveryId,
        delivery.eventId,
        delivery.transactionId,
        delivery.number,
        delivery.externalId,
        delivery.type,
        delivery.outcome,
        delivery.providerId,
        delivery.infrastructureId,
        delivery.format,
        delivery.targetUrl,
        delivery.body,
        delivery.problem ? 'failed' : 'pending',
        delivery.problem ?? null,
      ],
    );
    if (rows.length > 0 && !delivery.problem) due++;
  }
  return due;
}

async function describeDelivery(
  event: RecordedEvent,
  store: PostgresEventStore,
  box: SecretBox,
): Promise<NewDelivery | undefined> {
  const history = (await store.readStream(event.streamId)).filter((e) => e.streamVersion <= event.streamVersion);
  const first = history[0];
  if (!first || (first.type !== 'DepositRequested' && first.type !== 'WithdrawalRequested')) return undefined;
  const origin =
    first.type === 'DepositRequested'
      ? EVENT_CATALOG.DepositRequested.schema.parse(first.data)
      : EVENT_CATALOG.WithdrawalRequested.schema.parse(first.data);
  const type = first.type === 'DepositRequested' ? 'deposit' : 'withdrawal';
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

  const infraEvent = await lastOf(store, STREAMS.infrastructure(origin.infrastructureId), ['InfrastructureConfigured']);
  if (!infraEvent) return { ...delivery, problem: `infrastructure ${origin.infrastructureId} not found` };
  const infra = EVENT_CATALOG.InfrastructureConfigured.schema.parse(infraEvent.data);
  delivery.format = infra.callbackFormat;
  delivery.targetUrl = type === 'deposit' ? infra.callbackDeposit : infra.callbackWithdrawal;

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
    const providerEvent = await lastOf(store, STREAMS.provider(origin.providerId), [
      'ProviderConfigured',
      'ProviderDeleted',
    ]);
    sealed = providerEvent
      ? EVENT_CATALOG.ProviderConfigured.schema.parse(providerEvent.data).apiSecretSealed
      : undefined;
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
