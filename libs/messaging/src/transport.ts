import { Logger } from '@nestjs/common';
import { ClientKafka, ClientNats, ServerKafka, ServerNats, type KafkaOptions } from '@nestjs/microservices';
import type { Kafka } from 'kafkajs';
import { z } from 'zod';
import {
  kafkaInstanceId,
  kafkaTransportOptions,
  parseKafkaBrokers,
  SERVICE_NAMES,
  type ServiceName,
} from './kafka/kafka-transport.options.js';
import { evictPredecessors } from './kafka/predecessor-takeover.js';
import { DEAD_MEMBER_SWEEP_MS, sweepDeadMembers, type ReplicaLiveness } from './kafka/dead-member-sweep.js';

/**
 * Which transport carries commands and queries between the service processes, from the environment:
 * TRANSPORT=nats (default; NATS_URL) or TRANSPORT=kafka (KAFKA_BROKERS, see ./kafka). NATS runs on our
 * machines and is what the tests use; Kafka is the design's engine.
 */
export interface TransportConfig {
  kind: 'nats' | 'kafka';
  natsUrl: string;
  /** Prefix of every subject/topic, so several deployments (or test runs) share one broker safely. */
  subjectPrefix: string;
  /** How long a caller waits for an answer before it reports `503 unavailable` (never re-sent by us). */
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}

const TransportEnvSchema = z.object({
  TRANSPORT: z.enum(['nats', 'kafka']).default('nats'),
  NATS_URL: z
    .string()
    .regex(/^(nats|tls):\/\/[^\s]+$/, 'NATS_URL must be nats://host:port (or tls://)')
    .default('nats://127.0.0.1:4222'),
  MESSAGING_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'MESSAGING_PREFIX must be 1..64 characters of A-Z a-z 0-9 _ -')
    .default('transfergate'),
  COMMAND_TIMEOUT_MS: z
    .string()
    .regex(/^\d{1,6}$/, 'COMMAND_TIMEOUT_MS must be an integer 100..600000')
    .default('10000')
    .transform(Number)
    .refine((n) => n >= 100 && n <= 600_000, 'COMMAND_TIMEOUT_MS must be an integer 100..600000'),
});

export class TransportConfigError extends Error {}

export function transportConfigFrom(env: NodeJS.ProcessEnv): TransportConfig {
  const parsed = TransportEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new TransportConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  }
  const e = parsed.data;
  if (e.TRANSPORT === 'kafka') {
    try {
      parseKafkaBrokers(env.KAFKA_BROKERS);
    } catch (error) {
      throw new TransportConfigError((error as Error).message);
    }
  }
  return {
    kind: e.TRANSPORT,
    natsUrl: e.NATS_URL,
    subjectPrefix: e.MESSAGING_PREFIX,
    timeoutMs: e.COMMAND_TIMEOUT_MS,
    env,
  };
}

export function isServiceName(name: string): name is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(name);
}

/**
 * The listener of one service. NATS: every instance of every service subscribes in one queue group
 * per deployment, so each message reaches exactly one process that handles its type, even if two
 * services ever declared a handler for the same type. Kafka: one consumer group per service (./kafka).
 */
export type TransportServer = ServerNats | ServerKafka;
export type TransportClient = ClientNats | ClientKafka;

export function createTransportServer(
  config: TransportConfig,
  service: ServiceName,
  /** Kafka: lets live replicas remove a dead one from the group at once (./kafka/dead-member-sweep.ts). */
  liveness?: ReplicaLiveness,
): TransportServer {
  if (config.kind === 'kafka') {
    const { server, serverGroupId, serverClientId } = kafkaTransportOptions(config.env, service);
    if (!server.options) throw new TransportConfigError('kafka server options missing');
    return new TakeoverServerKafka(server.options, serverGroupId, serverClientId, liveness);
  }
  return new ServerNats({ servers: [config.natsUrl], queue: `${config.subjectPrefix}.handlers`, name: service });
}

/** How long a starting handler waits for the group coordinator before joining without a takeover. */
const PREDECESSOR_TAKEOVER_TIMEOUT_MS = 5_000;

/**
 * Nest's Kafka server that, before its consumer joins the service's group, removes this replica's
 * killed predecessor from it, so a restart takes the partitions back at once instead of after the
 * session timeout (./kafka/predecessor-takeover.ts); and, given the replicas' liveness, removes any
 * other replica of the group whose process is gone (./kafka/dead-member-sweep.ts).
 */
class TakeoverServerKafka extends ServerKafka {
  private readonly takeoverLogger = new Logger('KafkaTakeover');
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;
  private suspects = new Set<string>();

  constructor(
    options: NonNullable<KafkaOptions['options']>,
    private readonly serviceGroupId: string,
    private readonly replicaClientId: string,
    private readonly liveness?: ReplicaLiveness,
  ) {
    super(options);
  }

  override async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    await super.close();
    await this.liveness?.close().catch(() => undefined);
  }

  private sweep(): void {
    if (this.sweeping || !this.liveness) return;
    this.sweeping = true;
    sweepDeadMembers(
      this.client as unknown as Kafka,
      this.serviceGroupId,
      this.replicaClientId,
      this.liveness,
      this.suspects,
    )
      .then((verdict) => {
        this.suspects = verdict.suspects;
        if (verdict.evict.length > 0) {
          this.takeoverLogger.warn(`removed ${verdict.evict.length} dead member(s) from ${this.serviceGroupId}`);
        }
      })
      // The session timeout still frees a dead member's partitions: slower, never wrong.
      .catch((error: unknown) => this.takeoverLogger.debug(`no sweep of ${this.serviceGroupId}: ${String(error)}`))
      .finally(() => (this.sweeping = false));
  }

  override async start(callback: () => void): Promise<void> {
    if (this.liveness) {
      try {
        // Before joining, so that the other replicas never see this member without its record.
        await this.liveness.register(this.replicaClientId);
        this.sweepTimer = setInterval(() => this.sweep(), DEAD_MEMBER_SWEEP_MS);
        this.sweepTimer.unref();
      } catch (error) {
        this.takeoverLogger.warn(`no liveness record for ${this.replicaClientId}: ${(error as Error).message}`);
      }
    }
    try {
      const evicted = await evictPredecessors(
        this.client as unknown as Kafka,
        this.serviceGroupId,
        this.replicaClientId,
        PREDECESSOR_TAKEOVER_TIMEOUT_MS,
      );
      if (evicted.length > 0) {
        this.takeoverLogger.log(`took over from ${evicted.length} earlier member(s) of ${this.serviceGroupId}`);
      }
    } catch (error) {
      // The session timeout still frees the partitions: slower, never wrong.
      this.takeoverLogger.warn(`no takeover in ${this.serviceGroupId}: ${(error as Error).message}`);
    }
    return super.start(callback);
  }
}

/** The caller side. Kafka needs every pattern it will send before connecting (reply topics). */
export function createTransportClient(
  config: TransportConfig,
  service: ServiceName,
  patterns: readonly string[],
  /** Kafka: names this client's reply group; one per client, never shared (see ./kafka). */
  instanceId: string = kafkaInstanceId(config.env),
): TransportClient {
  if (config.kind === 'kafka') {
    const options = kafkaTransportOptions(config.env, service, instanceId).client.options;
    if (!options) throw new TransportConfigError('kafka client options missing');
    const client = new ClientKafka(options);
    for (const pattern of patterns) client.subscribeToResponseOf(pattern);
    return client;
  }
  return new ClientNats({ servers: [config.natsUrl], name: `${service}-client` });
}

/** Every environment variable transportConfigFrom reads itself (the Kafka options read theirs in ./kafka). */
export const TRANSPORT_ENV_VARIABLES: readonly string[] = Object.keys(TransportEnvSchema.shape);
