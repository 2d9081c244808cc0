import { Kafka, logLevel, Partitioners, type Consumer, type Producer } from 'kafkajs';
import { ensureKafkaTopics, seekToStart } from '../kafka/kafka-topics.js';
import { noticeSubject, type NoticeChannel, type NoticeChannelHandlers } from './notice-channel.js';

/** One partition: notices are rare (operator changes) and every instance reads all of them. */
const NOTICE_TOPIC_PARTITIONS = 1;
const TOPIC_SETUP_TIMEOUT_MS = 60_000;

export interface KafkaNoticeChannelOptions {
  brokers: string[];
  prefix: string;
  /** Every notice of the catalogue: their topics exist before anything is announced or read. */
  allNames: readonly string[];
  /** Unique to this process (clientId and consumer group are named after it). */
  clientId: string;
  sessionTimeoutMs: number;
  /** How long start() waits for the consumer's first successful group join (default 60 s). */
  joinTimeoutMs?: number;
}

/** What the channel needs of kafkajs and of the topic setup: the real ones unless a test hands others. */
export interface KafkaNoticeChannelDeps {
  kafka: Pick<Kafka, 'producer' | 'consumer'>;
  ensureTopics: typeof ensureKafkaTopics;
}

/**
 * Notices over Kafka: one topic per notice, read by every process in a consumer group of its own
 * (as the reply groups, ../kafka), so no instance shares a notice with another. A new group starts at
 * the topic's end as read before joining (seekToStart), so a notice sent while it joined is not
 * skipped; a (re)join or a crash of the consumer is reported as a gap.
 */
export class KafkaNoticeChannel implements NoticeChannel {
  private readonly kafka: KafkaNoticeChannelDeps['kafka'];
  private readonly ensureTopics: KafkaNoticeChannelDeps['ensureTopics'];
  private readonly joinTimeoutMs: number;
  private producer?: Producer;
  private consumer?: Consumer;
  /**
   * Started, and its consumer (if it listens) not crashed or stopped since it last joined its group.
   * kafkajs reconnects the producer on its next send and tells nothing in between, so a broker that
   * is away shows here only through the consumer; a process that only announces stays connected.
   */
  private connected = false;

  constructor(
    private readonly options: KafkaNoticeChannelOptions,
    deps?: Partial<KafkaNoticeChannelDeps>,
  ) {
    this.joinTimeoutMs = options.joinTimeoutMs ?? TOPIC_SETUP_TIMEOUT_MS;
    if (!Number.isInteger(this.joinTimeoutMs) || this.joinTimeoutMs < 1)
      throw new RangeError('joinTimeoutMs must be > 0');
    this.kafka =
      deps?.kafka ??
      new Kafka({
        clientId: `${options.clientId}.notices`,
        brokers: options.brokers,
        logLevel: logLevel.NOTHING,
        retry: { initialRetryTime: 300, retries: 8 },
      });
    this.ensureTopics = deps?.ensureTopics ?? ensureKafkaTopics;
  }

  async start(names: readonly string[], handlers: NoticeChannelHandlers): Promise<void> {
    const { prefix, brokers, clientId } = this.options;
    const topics = names.map((name) => noticeSubject(prefix, name));
    // Created here, not by the broker's auto-creation (see ensureKafkaTopics on KRaft).
    const { endOffsets } = await this.ensureTopics({
      brokers,
      clientId,
      topics: this.options.allNames.map((name) => noticeSubject(prefix, name)),
      partitions: NOTICE_TOPIC_PARTITIONS,
      timeoutMs: TOPIC_SETUP_TIMEOUT_MS,
      endOffsetsOf: topics,
    });
    const producer = this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    this.producer = producer;
    if (topics.length === 0) {
      this.connected = true;
      return;
    }
    const consumer = this.kafka.consumer({
      groupId: `${clientId}.notices`,
      sessionTimeout: this.options.sessionTimeoutMs,
      heartbeatInterval: Math.min(1_000, Math.floor(this.options.sessionTimeoutMs / 10)),
      maxWaitTimeInMs: 250,
    });
    let joined: () => void = () => undefined;
    const firstJoin = new Promise<void>((resolve) => (joined = resolve));
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.connected = true;
      handlers.onGap();
      joined();
    });
    consumer.on(consumer.events.CRASH, () => {
      this.connected = false;
      handlers.onGap();
    });
    consumer.on(consumer.events.STOP, () => (this.connected = false));
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: false });
    const nameOf = new Map(names.map((name) => [noticeSubject(prefix, name), name]));
    await consumer.run({
      eachMessage: async ({ topic }) => {
        const name = nameOf.get(topic);
        if (name) handlers.onNotice(name);
      },
    });
    this.consumer = consumer;
    // run() also returns when the first join failed and kafkajs has scheduled a restart (a broker
    // that has just started answers "the coordinator is loading" for a while): there is no group to
    // seek in until a join succeeds.
    await settledWithin(firstJoin, this.joinTimeoutMs, 'Kafka notice consumer did not join its group');
    seekToStart(consumer, endOffsets);
  }

  async publish(name: string): Promise<void> {
    const producer = this.producer;
    if (!producer) throw new Error('notice channel not started');
    await producer.send({ topic: noticeSubject(this.options.prefix, name), acks: -1, messages: [{ value: '' }] });
  }

  isConnected(): boolean {
    return this.connected;
  }

  async close(): Promise<void> {
    this.connected = false;
    await this.consumer?.disconnect().catch(() => undefined);
    await this.producer?.disconnect().catch(() => undefined);
  }
}

/** `promise`, or an error naming `what` once `timeoutMs` has passed. */
async function settledWithin(promise: Promise<void>, timeoutMs: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
