import { Kafka, logLevel, type Admin } from 'kafkajs';

/** Limits (TIGER_STYLE): a service uses two topics per catalogued message type at most. */
export const MAX_KAFKA_TOPICS = 1_000;
const POLL_MS = 200;

export interface EnsureKafkaTopicsOptions {
  brokers: string[];
  clientId: string;
  topics: readonly string[];
  /** How long to wait for the broker to create the topics and elect their leaders. */
  timeoutMs: number;
  /** Partitions of each topic created here (existing topics are left as they are); broker default if absent. */
  partitions?: number;
  /** Topics whose current end offsets are returned (see `seekToStart`). */
  endOffsetsOf?: readonly string[];
}

/** The request topic of a subject and the topic its replies come back on (Nest's ClientKafka naming). */
export function requestAndReplyTopics(subjects: readonly string[]): string[] {
  return [...new Set(subjects.flatMap((subject) => [subject, `${subject}.reply`]))].sort();
}

/**
 * Creates the topics a service consumes or produces before any consumer subscribes to them, and
 * waits until each partition has a leader.
 *
 * Why not the broker's auto-creation: a KRaft broker answers the first metadata request for a topic
 * it is auto-creating with UNKNOWN_TOPIC_OR_PARTITION, and kafkajs's consumer `subscribe` treats that
 * as final (it retries only LEADER_NOT_AVAILABLE), so a service started against an empty Apache Kafka
 * 4 broker failed to listen at all. Creating them here also works where production brokers disable
 * auto-creation. Partition count and replication factor are the broker's defaults; creating a topic
 * that another instance created meanwhile is not an error.
 */
export interface TopicPartitionOffset {
  topic: string;
  partition: number;
  offset: string;
}

export async function ensureKafkaTopics(
  options: EnsureKafkaTopicsOptions,
): Promise<{ created: string[]; endOffsets: TopicPartitionOffset[] }> {
  const topics = [...new Set(options.topics)];
  if (topics.length > MAX_KAFKA_TOPICS) throw new Error(`more than ${MAX_KAFKA_TOPICS} Kafka topics requested`);
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 1) throw new RangeError('timeoutMs must be > 0');
  if (topics.length === 0) return { created: [], endOffsets: [] };
  const admin = newAdmin(options);
  const deadline = Date.now() + options.timeoutMs;
  await admin.connect();
  try {
    const created = await createMissing(admin, topics, options.timeoutMs, deadline, options.partitions);
    const endOffsets: TopicPartitionOffset[] = [];
    for (const topic of options.endOffsetsOf ?? []) {
      const ends = await untilDeadline(deadline, () => admin.fetchTopicOffsets(topic));
      for (const { partition, high } of ends) endOffsets.push({ topic, partition, offset: high });
    }
    return { created, endOffsets };
  } finally {
    await admin.disconnect();
  }
}

/**
 * A partition the metadata already shows with a leader can still answer NOT_LEADER_FOR_PARTITION
 * for a moment after its creation (the broker is still opening its log): retriable errors are
 * retried until the deadline.
 */
async function untilDeadline<T>(deadline: number, attempt: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error as { retriable?: boolean }).retriable || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

function newAdmin(options: EnsureKafkaTopicsOptions): Admin {
  return new Kafka({
    clientId: `${options.clientId}.admin`,
    brokers: options.brokers,
    logLevel: logLevel.NOTHING,
    retry: { initialRetryTime: 300, retries: 8 },
  }).admin();
}

async function createMissing(
  admin: Admin,
  topics: string[],
  timeoutMs: number,
  deadline: number,
  partitions: number | undefined,
): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((topic) => !existing.has(topic));
  if (missing.length > 0) {
    // Not kafkajs's waitForLeaders: it asks the broker for the new topics' metadata at once and gives
    // up on the UNKNOWN_TOPIC_OR_PARTITION a KRaft broker answers while its metadata still trails the
    // controller's (a ledger failed to start on it in CI; 15-40 of 40 fresh creations here). The poll
    // below waits for the same leaders and takes that answer for "not yet".
    await admin.createTopics({
      topics: missing.map((topic) => ({ topic, ...(partitions ? { numPartitions: partitions } : {}) })),
      waitForLeaders: false,
      timeout: timeoutMs,
    });
  }
  // Leaders may still be moving into place (or another instance's creation is in flight): poll.
  for (;;) {
    try {
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
      const ready = metadata.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
      if (ready) return missing;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error(`Kafka topics have no leader after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * A consumer group with no committed offset starts where kafkajs's first fetch finds the end of each
 * partition ("latest"), which happens some time AFTER the group has joined. A caller's reply group is
 * new with every process: requests sent right after it reported its assignment got replies written
 * before that first fetch, and those replies were skipped (the caller timed out; seen on the real
 * broker). So the caller reads the reply topics' ends before it connects (`ensureKafkaTopics`'s
 * `endOffsetsOf`) and, once joined, seeks there: every reply to a request sent after connecting is
 * at or after that offset. (kafkajs's admin.setOffsets joins the group with a consumer of its own and
 * waits for a fetch: seconds per topic, so no.)
 */
export function seekToStart(
  consumer: { seek(entry: { topic: string; partition: number; offset: string }): void },
  starts: readonly TopicPartitionOffset[],
): void {
  for (const start of starts) consumer.seek(start);
}
