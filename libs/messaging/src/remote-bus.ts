import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { ClientKafka } from '@nestjs/microservices';
import { Command, CommandBus, CqrsModule, Query, QueryBus } from '@nestjs/cqrs';
import { DomainError, isSaneRequestId, type ActorRef } from '@transfergate/contracts';
import { firstValueFrom, timeout, TimeoutError, type Observable, type Subscription } from 'rxjs';
import {
  createTransportClient,
  type TransportClient,
  type TransportConfig,
  type TransportServer,
} from './transport.js';
import { kafkaInstanceId, kafkaTransportOptions, type ServiceName } from './kafka/kafka-transport.options.js';
import { ensureKafkaTopics, requestAndReplyTopics, type TopicPartitionOffset } from './kafka/kafka-topics.js';
import { seekRepliesOnceJoined } from './kafka/reply-readiness.js';
import { errorReplyOf, fromWire, replyOf, toWire, unwrapReply, type Wire, type WireReply } from './wire-codec.js';

// @nestjs/cqrs keys (decorators/constants.js, not exported from its index): the id a bus files a
// command/query class under, and the class a handler is declared for.
const COMMAND_METADATA = '__command__';
const QUERY_METADATA = '__query__';
const COMMAND_HANDLER_METADATA = '__commandHandler__';
const QUERY_HANDLER_METADATA = '__queryHandler__';

/** Upper bound on catalogued message classes (TIGER_STYLE): the contracts hold a few dozen. */
const MAX_MESSAGE_CLASSES = 500;
/** How long a Kafka service waits at start for its topics to exist with leaders. */
const KAFKA_TOPIC_SETUP_TIMEOUT_MS = 60_000;
/** How long a Kafka service waits at start for its reply group's first join (kafkajs retries it). */
const KAFKA_REPLY_JOIN_TIMEOUT_MS = 60_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type MessageClass = abstract new (...args: any[]) => object;
export type MessageKind = 'command' | 'query';

export interface MessageCatalog {
  commands: MessageClass[];
  queries: MessageClass[];
}

/**
 * Every Command and Query class a module namespace exports (pass `import * as contracts`): the set
 * of messages that may cross process boundaries. Class names are the wire names, so they must be unique.
 */
export function messageCatalogOf(namespace: Record<string, unknown>): MessageCatalog {
  const commands: MessageClass[] = [];
  const queries: MessageClass[] = [];
  for (const value of Object.values(namespace)) {
    if (typeof value !== 'function' || !value.prototype) continue;
    if (value.prototype instanceof Command) commands.push(value as MessageClass);
    else if (value.prototype instanceof Query) queries.push(value as MessageClass);
  }
  const names = [...commands, ...queries].map((c) => c.name);
  if (new Set(names).size !== names.length) throw new Error('message catalog: two message classes share a name');
  if (names.length > MAX_MESSAGE_CLASSES) throw new Error(`message catalog: more than ${MAX_MESSAGE_CLASSES} classes`);
  return { commands, queries };
}

export function subjectOf(prefix: string, kind: MessageKind, type: MessageClass): string {
  return `${prefix}.${kind}.${type.name}`;
}

export interface RemoteBusOptions {
  service: ServiceName;
  transport: TransportConfig;
  catalog: MessageCatalog;
  /** This process's listener (hybrid app); the bridge registers a handler per locally handled message. */
  server?: TransportServer;
}

export const REMOTE_BUS_OPTIONS = Symbol('REMOTE_BUS_OPTIONS');

/** What the bridge found at start: which messages this process answers and which it sends away. */
export interface RemoteBusRoutes {
  served: string[];
  forwarded: string[];
}

/**
 * Binds the in-process CommandBus/QueryBus to the transport, so service code stays unchanged:
 * - a command or query whose handler is in this process runs locally and is also served to other
 *   processes on its subject;
 * - every other catalogued message gets a forwarding handler (the RemoteCommandBus/RemoteQueryBus
 *   role) that sends it, waits at most `timeoutMs` and rethrows the remote DomainError/HttpException
 *   as the same class with the same code and status, so HTTP error bodies are identical to the
 *   embedded mode. A timed-out message is never re-sent here: it is `503 unavailable`, and the
 *   caller re-sends the same external id or event id, which the ledger answers idempotently.
 */
@Injectable()
export class RemoteBusBridge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RemoteBus');
  private client?: TransportClient;
  private connected = false;
  private statusSubscription?: Subscription;
  readonly routes: RemoteBusRoutes = { served: [], forwarded: [] };

  constructor(
    @Inject(REMOTE_BUS_OPTIONS) private readonly options: RemoteBusOptions,
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly discovery: DiscoveryService,
  ) {}

  /** True while the client is connected (readiness): follows the transport's own status events. */
  isConnected(): boolean {
    return this.connected;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { catalog, transport } = this.options;
    const local = this.locallyHandled();
    const forwarded: Array<{ kind: MessageKind; type: MessageClass; subject: string }> = [];
    for (const [kind, types] of [
      ['command', catalog.commands],
      ['query', catalog.queries],
    ] as const) {
      for (const type of types) {
        const subject = subjectOf(transport.subjectPrefix, kind, type);
        if (local.has(type)) this.serve(kind, type, subject);
        else forwarded.push({ kind, type, subject });
      }
    }
    const instanceId = kafkaInstanceId(transport.env);
    const replyStarts =
      transport.kind === 'kafka'
        ? await this.prepareKafka(
            instanceId,
            forwarded.map((f) => f.subject),
          )
        : [];
    this.client = createTransportClient(
      transport,
      this.options.service,
      forwarded.map((f) => f.subject),
      instanceId,
    );
    for (const { kind, type, subject } of forwarded) this.forward(kind, type, subject);
    await this.client.connect();
    if (this.client instanceof ClientKafka && forwarded.length > 0) {
      await seekRepliesOnceJoined(
        this.client,
        forwarded.map((f) => f.subject),
        replyStarts,
        KAFKA_REPLY_JOIN_TIMEOUT_MS,
      );
    }
    this.connected = true;
    // NATS: connected / disconnected / reconnecting; Kafka: connected / disconnected / crashed / …
    this.statusSubscription = (this.client.status as Observable<string>).subscribe((status) => {
      this.connected = status === 'connected';
    });
    this.logger.log(`${this.routes.served.length} message types served, ${this.routes.forwarded.length} forwarded`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.statusSubscription?.unsubscribe();
    this.connected = false;
    await this.client?.close();
  }

  /**
   * Kafka: every topic this process consumes or produces exists before anything subscribes, and
   * where this instance's new reply group must start reading, so no reply is skipped
   * (./kafka/kafka-topics.ts).
   */
  private async prepareKafka(instanceId: string, forwardedSubjects: string[]): Promise<TopicPartitionOffset[]> {
    const { brokers, clientId, topicPartitions } = kafkaTransportOptions(
      this.options.transport.env,
      this.options.service,
      instanceId,
    );
    const { endOffsets } = await ensureKafkaTopics({
      brokers,
      clientId,
      partitions: topicPartitions,
      topics: requestAndReplyTopics([...this.routes.served, ...forwardedSubjects]),
      timeoutMs: KAFKA_TOPIC_SETUP_TIMEOUT_MS,
      endOffsetsOf: forwardedSubjects.map((subject) => `${subject}.reply`),
    });
    return endOffsets;
  }

  /** Message classes with a handler provider in this application. */
  private locallyHandled(): Set<MessageClass> {
    const local = new Set<MessageClass>();
    for (const wrapper of this.discovery.getProviders()) {
      const type = wrapper.metatype as unknown;
      if (typeof type !== 'function') continue;
      for (const key of [COMMAND_HANDLER_METADATA, QUERY_HANDLER_METADATA]) {
        const handled = Reflect.getMetadata(key, type) as MessageClass | undefined;
        if (handled) local.add(handled);
      }
    }
    return local;
  }

  private serve(kind: MessageKind, type: MessageClass, subject: string): void {
    const server = this.options.server;
    if (!server) return;
    const bus = kind === 'command' ? this.commandBus : this.queryBus;
    server.addHandler(
      subject,
      async (data: WireRequest): Promise<WireReply | KafkaReplyEnvelope> => {
        let reply: WireReply;
        let fields: Record<string, unknown>;
        try {
          fields = decodeFields(data?.message ?? null);
        } catch (error) {
          // A poison message (not ours, or corrupted): refused with an error reply (if it names a
          // reply topic) and logged; it is consumed and committed like any other, so it never
          // blocks the messages behind it in its partition.
          this.logger.warn(`${subject}: refused a malformed message: ${(error as Error).message}`);
          reply = errorReplyOf(error);
          return this.options.transport.kind === 'kafka' ? { value: reply } : reply;
        }
        try {
          const message = Object.assign(Object.create(type.prototype) as object, fields);
          // The caller's request id follows the command on its actor; a caller that sent it only
          // beside the message (before ActorRef.requestId) still gets it stamped on the events.
          adoptRequestId(message, data?.requestId);
          const result = await (bus as CommandBus).execute(message as unknown as Command<unknown>);
          reply = replyOf(result);
        } catch (error) {
          reply = errorReplyOf(error);
        }
        // Nest's Kafka serializer takes any answer with a `key` or `value` field for a Kafka message
        // and sends only that field: `{ ok: true, value }` arrived as the bare value (the `ok` lost).
        // So over Kafka the reply is handed over as the message's value, explicitly.
        return this.options.transport.kind === 'kafka' ? { value: reply } : reply;
      },
      false,
    );
    this.routes.served.push(subject);
  }

  private forward(kind: MessageKind, type: MessageClass, subject: string): void {
    const metadataKey = kind === 'command' ? COMMAND_METADATA : QUERY_METADATA;
    // A class with no handler in this process may never have been decorated: give it the bus id here.
    if (!Reflect.hasOwnMetadata(metadataKey, type)) Reflect.defineMetadata(metadataKey, { id: randomUUID() }, type);
    const id = (Reflect.getOwnMetadata(metadataKey, type) as { id: string }).id;
    const forwarder = { execute: (message: object) => this.send(subject, type.name, message) };
    // The buses' own binding entry point, with a static handler instance (no request scope).
    const binding = { isDependencyTreeStatic: () => true, instance: forwarder } as never;
    if (kind === 'command') this.commandBus.bind(binding, id);
    else this.queryBus.bind(binding, id);
    this.routes.forwarded.push(subject);
  }

  private async send(subject: string, name: string, message: object): Promise<unknown> {
    const client = this.client;
    if (!client) throw new DomainError('unavailable', `${name}: transport not started`);
    const { timeoutMs } = this.options.transport;
    let reply: WireReply;
    try {
      const request: WireRequest = { message: toWire(message), requestId: actorOf(message)?.requestId ?? null };
      reply = await firstValueFrom(client.send<WireReply, WireRequest>(subject, request).pipe(timeout(timeoutMs)));
    } catch (error) {
      if (error instanceof TimeoutError) {
        throw new DomainError(
          'unavailable',
          `${name} got no answer within ${timeoutMs} ms; it may or may not have been applied: send it again with the same id`,
        );
      }
      throw new DomainError('unavailable', `${name} could not be sent: ${(error as Error).message}`);
    }
    return unwrapReply(reply);
  }
}

/** A Kafka message for Nest's serializer: its value is the reply, JSON-encoded as a whole. */
interface KafkaReplyEnvelope {
  value: WireReply;
}

/** What a caller sends: the message's fields and the id of the request that caused it, if any. */
interface WireRequest {
  message: Wire;
  requestId: string | null;
}

function decodeFields(data: Wire): Record<string, unknown> {
  const value = fromWire(data);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new DomainError('validation_failed', 'a message must be an object');
  }
  return value as Record<string, unknown>;
}

/** Wires the bridge into an application; import once, next to the service modules. */
@Module({})
export class RemoteBusModule {
  static forRoot(options: RemoteBusOptions): DynamicModule {
    return {
      module: RemoteBusModule,
      global: true,
      imports: [CqrsModule, DiscoveryModule],
      providers: [{ provide: REMOTE_BUS_OPTIONS, useValue: options }, RemoteBusBridge],
      exports: [RemoteBusBridge],
    };
  }
}

/** A command's actor: `input.actor` (transaction commands) or `actor` (configuration commands). */
function actorOf(message: object): ActorRef | undefined {
  const fields = message as { actor?: unknown; input?: { actor?: unknown } };
  const actor = fields.input?.actor ?? fields.actor;
  return actor !== null && typeof actor === 'object' ? (actor as ActorRef) : undefined;
}

function adoptRequestId(message: object, requestId: unknown): void {
  const actor = actorOf(message);
  if (actor && actor.requestId === undefined && isSaneRequestId(requestId)) actor.requestId = requestId;
}
