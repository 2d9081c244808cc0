import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Transport, type KafkaOptions } from '@nestjs/microservices';
import { Partitioners } from 'kafkajs';
import { instanceReplyAssigner } from './instance-reply.assigner.js';

/**
 * Kafka transport options for one service instance (the design's engine; NATS is what runs on our
 * machines). Request-reply over Kafka and rebalances:
 *
 * Nest's ClientKafka consumes `<pattern>.reply` in a consumer group and stamps each request with
 * `kafka_replyPartition` = the lowest partition its CURRENT assignment holds. Shared by several
 * instances, that group rebalances whenever one joins, leaves or stalls, and the partition named in
 * a request in flight can move to another instance: the reply then reaches an instance that does not
 * know its correlation id (dropped) and the caller times out.
 *
 * So each client instance consumes replies in a consumer group of its own
 * (`<service>.replies.<instanceId>`). It is the only member, holds every partition of every reply
 * topic, and no other instance's arrival or departure can rebalance it: a reply always lands on the
 * instance that asked, whichever partition the server writes it to. Replies to other instances'
 * requests are read and ignored (ClientKafka drops unknown correlation ids), which costs N× reply
 * reads for N instances of a caller: fine for the few callers per service. The assigner refuses a
 * second member (two instances configured with the same instance id) instead of silently splitting
 * partitions.
 *
 * Servers (command handlers) share one group per service, so commands are load-balanced and a
 * rebalance only redelivers uncommitted commands. Commands are idempotent by id (the ledger's
 * event ids and no_stream creations), so a redelivered command or a caller's explicit re-send after a
 * timeout changes nothing twice. There are no hidden retries: a timed-out request is reported to the
 * caller, which decides whether to re-send the same command id.
 */

export const SERVICE_NAMES = ['gateway-api', 'ledger', 'panel-api', 'callback-dispatcher', 'webhook-ingest'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

type NestConsumerConfig = NonNullable<NonNullable<KafkaOptions['options']>['consumer']>;

/**
 * How quickly a consumer notices a rebalance: kafkajs checks between fetches, when its heartbeat is
 * due. With its defaults (fetches that wait up to 5 s, a heartbeat every session/10 = 3 s) a second
 * ledger joining stalled every command for several seconds on the real broker, longer than a
 * caller's timeout. Short fetch waits and a heartbeat at most every second keep a rebalance near 1 s.
 */
const MAX_FETCH_WAIT_MS = 250;
const MAX_HEARTBEAT_INTERVAL_MS = 1_000;
function consumerTiming(sessionTimeoutMs: number) {
  return {
    heartbeatInterval: Math.min(MAX_HEARTBEAT_INTERVAL_MS, Math.floor(sessionTimeoutMs / 10)),
    maxWaitTimeInMs: MAX_FETCH_WAIT_MS,
  };
}

/** Limits (TIGER_STYLE). */
const PARTITIONS_HANDLED_CONCURRENTLY = 16;
/**
 * Measured on the real broker: 8 partitions gave 1.1-1.8× the H2H req/s of 3 under 32 connections,
 * but every caller reads all reply partitions and every fetch round covers all of them, so single
 * requests got slower (200 sequential create-then-fetch rounds: about 70 s with 3, over 180 s with 8).
 */
const DEFAULT_TOPIC_PARTITIONS = 3;
const MAX_TOPIC_PARTITIONS = 64;
export const MAX_KAFKA_BROKERS = 32;
const MAX_INSTANCE_ID_LENGTH = 100;

export interface KafkaTransportOptions {
  /** Options for `app.connectMicroservice(...)` in the service that handles commands. */
  server: KafkaOptions;
  /** Options for `ClientsModule.register(...)` / `ClientProxyFactory.create(...)` in a caller. */
  client: KafkaOptions;
  /** Names the options were built from (logs, tests). */
  brokers: string[];
  /**
   * Partitions per topic the transport creates. Commands of one partition are handled one after the
   * other, so this bounds how many commands of one type a service handles at once.
   */
  topicPartitions: number;
  clientId: string;
  serverGroupId: string;
  replyGroupId: string;
  /**
   * The command handler's client id: the same for every incarnation of one replica (its replica name),
   * so a restarted replica recognises its killed predecessor in the group (./predecessor-takeover.ts).
   */
  serverClientId: string;
}

export interface KafkaTransportEnv {
  KAFKA_BROKERS?: string;
  /** Stable per pod (Kubernetes sets HOSTNAME to the pod name); falls back to host + pid + random. */
  INSTANCE_ID?: string;
  HOSTNAME?: string;
  KAFKA_SESSION_TIMEOUT_MS?: string;
  /** The deployment's prefix (as for NATS subjects): consumer groups are named after it too. */
  MESSAGING_PREFIX?: string;
  /** Partitions of each topic the transport creates (default 3). */
  KAFKA_TOPIC_PARTITIONS?: string;
}

/** `host:port,host:port` → brokers; refuses anything else by name. */
export function parseKafkaBrokers(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') throw new Error('KAFKA_BROKERS is required when TRANSPORT=kafka');
  const brokers = value
    .split(',')
    .map((broker) => broker.trim())
    .filter((broker) => broker !== '');
  if (brokers.length === 0 || brokers.length > MAX_KAFKA_BROKERS) {
    throw new Error(`KAFKA_BROKERS must list 1..${MAX_KAFKA_BROKERS} brokers (got "${value}")`);
  }
  for (const broker of brokers) {
    const match = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\]):(\d{1,5})$/.exec(broker);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65_535) {
      throw new Error(`KAFKA_BROKERS entry "${broker}" is not host:port`);
    }
  }
  return brokers;
}

function kafkaName(raw: string, variable: string): string {
  const id = raw.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, MAX_INSTANCE_ID_LENGTH);
  if (id === '') throw new Error(`${variable} must contain at least one of A-Z a-z 0-9 . _ -`);
  return id;
}

/**
 * The name of this replica, stable across its restarts: INSTANCE_ID, else the pod's name (HOSTNAME;
 * a restarted container keeps its pod), else the host's name.
 */
export function kafkaReplicaName(env: KafkaTransportEnv): string {
  return kafkaName(env.INSTANCE_ID || env.HOSTNAME || hostname(), env.INSTANCE_ID ? 'INSTANCE_ID' : 'HOSTNAME');
}

/** An id unique to this process: Kafka names built from it must never be shared by two instances. */
export function kafkaInstanceId(env: KafkaTransportEnv): string {
  const raw = env.INSTANCE_ID || `${env.HOSTNAME || hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  return kafkaName(raw, 'INSTANCE_ID');
}

export function kafkaTransportOptions(
  env: KafkaTransportEnv,
  service: ServiceName,
  instanceId: string = kafkaInstanceId(env),
): KafkaTransportOptions {
  if (!SERVICE_NAMES.includes(service)) throw new Error(`unknown service "${service}"`);
  const brokers = parseKafkaBrokers(env.KAFKA_BROKERS);
  const sessionTimeoutMs = env.KAFKA_SESSION_TIMEOUT_MS ? Number(env.KAFKA_SESSION_TIMEOUT_MS) : 30_000;
  if (!Number.isInteger(sessionTimeoutMs) || sessionTimeoutMs < 6_000 || sessionTimeoutMs > 300_000) {
    throw new Error(`KAFKA_SESSION_TIMEOUT_MS must be an integer 6000..300000 (got "${env.KAFKA_SESSION_TIMEOUT_MS}")`);
  }
  // Two deployments (or test runs) on one broker use different prefixes: their topics differ, and so
  // must their consumer groups, or one group would hold members subscribed to different topics.
  const prefix = env.MESSAGING_PREFIX || 'transfergate';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(prefix))
    throw new Error(`MESSAGING_PREFIX "${prefix}" is not 1..64 of A-Z a-z 0-9 _ -`);
  const topicPartitions = env.KAFKA_TOPIC_PARTITIONS ? Number(env.KAFKA_TOPIC_PARTITIONS) : DEFAULT_TOPIC_PARTITIONS;
  if (!Number.isInteger(topicPartitions) || topicPartitions < 1 || topicPartitions > MAX_TOPIC_PARTITIONS) {
    throw new Error(
      `KAFKA_TOPIC_PARTITIONS must be an integer 1..${MAX_TOPIC_PARTITIONS} (got "${env.KAFKA_TOPIC_PARTITIONS}")`,
    );
  }
  const clientId = `${prefix}.${service}.${instanceId}`;
  // Nest appends postfixId to both clientId and groupId; we spell the full names and pass '' instead.
  const serverGroupId = `${prefix}.${service}`;
  const replyGroupId = `${prefix}.${service}.replies.${instanceId}`;
  const serverClientId = `${prefix}.${service}.${kafkaReplicaName(env)}.server`;
  const retry = { initialRetryTime: 300, retries: 8 };

  return {
    brokers,
    topicPartitions,
    clientId,
    serverGroupId,
    replyGroupId,
    serverClientId,
    server: {
      transport: Transport.KAFKA,
      options: {
        postfixId: '',
        client: { clientId: serverClientId, brokers, retry },
        consumer: {
          groupId: serverGroupId,
          sessionTimeout: sessionTimeoutMs,
          ...consumerTiming(sessionTimeoutMs),
          allowAutoTopicCreation: true,
        },
        // A partition this group has never committed is read from its start, not from "latest": after
        // a rebalance (a second ledger joining) the new owner of such a partition resolved "latest"
        // only at its first fetch, and a command sent during the rebalance was skipped for good (seen
        // as a panel-api start-up query lost on the real broker). Commands are idempotent, so reading
        // a never-handled one late is the at-least-once the callers are promised.
        subscribe: { fromBeginning: true },
        // Commit after each handled command: a rebalance redelivers at most the commands in flight.
        // kafkajs hands one message at a time to the handler by default: one slow command (a query
        // that waits for a projection) held up every other one behind it, so partitions are handled
        // concurrently, each still in order.
        run: {
          autoCommit: true,
          autoCommitThreshold: 1,
          partitionsConsumedConcurrently: PARTITIONS_HANDLED_CONCURRENTLY,
        },
        // kafkajs 2's default partitioner, named so kafkajs does not warn about its change on every start.
        producer: { allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner },
        send: { acks: -1 },
      },
    },
    client: {
      transport: Transport.KAFKA,
      options: {
        postfixId: '',
        client: { clientId: `${clientId}.client`, brokers, retry },
        consumer: {
          groupId: replyGroupId,
          sessionTimeout: sessionTimeoutMs,
          ...consumerTiming(sessionTimeoutMs),
          allowAutoTopicCreation: true,
          // kafkajs's own type and Nest's copy of it differ only nominally.
          partitionAssigners: [instanceReplyAssigner] as unknown as NestConsumerConfig['partitionAssigners'],
        },
        // Only replies to requests sent from now on matter: a new instance never reads old replies.
        subscribe: { fromBeginning: false },
        // kafkajs 2's default partitioner, named so kafkajs does not warn about its change on every start.
        producer: { allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner },
        send: { acks: -1 },
      },
    },
  };
}
