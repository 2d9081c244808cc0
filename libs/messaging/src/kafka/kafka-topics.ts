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
  /**
   * Consumer groups about to consume some of these topics, each started at the topics' current end
   * where it has no committed offset yet (see `startGroupAtEnd`).
   */
  groups?: ReadonlyArray<{ groupId: string; topics: readonly string[] }>;
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
export async function ensureKafkaTopics(options: EnsureKafkaTopicsOptions): Promise<string[]> {
  const topics = [...new Set(options.topics)];
  if (topics.length > MAX_KAFKA_TOPICS) throw new Error(`more than ${MAX_KAFKA_TOPICS} Kafka topics requested`);
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs < 1) throw new RangeError('timeoutMs must be > 0');
  if (topics.length === 0) return [];
  const admin = newAdmin(options);
  const deadline = Date.now() + options.timeoutMs;
  await admin.connect();
  try {
    const created = await createMissing(admin, topics, options.timeoutMs, deadline);
    for (const group of options.groups ?? []) await startGroupAtEnd(admin, group.groupId, group.topics);
    return created;
  } finally {
    await admin.disconnect();
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

async function createMissing(admin: Admin, topics: string[], timeoutMs: number, deadline: number): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((topic) => !existing.has(topic));
  if (missing.length > 0) {
    await admin.createTopics({
      topics: missing.map((topic) => ({ topic })),
      waitForLeaders: true,
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
 * A consumer group with no committed offset starts where kafkajs's first fetch finds the end of the
 * partition ("latest"), which happens some time AFTER the group has joined. A caller's reply group
 * is new with every process: requests sent right after it reported its assignment got replies
 * written before that first fetch, and those replies were skipped (the caller timed out). So the
 * end is fixed before the consumer joins, by committing it for every partition without a commit;
 * every message written after this call is then consumed. A group that already has members (other
 * instances of a service) refuses the commit: it is consuming already, which is fine.
 */
export async function startGroupAtEnd(admin: Admin, groupId: string, topics: readonly string[]): Promise<void> {
  if (topics.length === 0) return;
  const committed = await admin.fetchOffsets({ groupId, topics: [...topics] });
  for (const { topic, partitions } of committed) {
    const uncommitted = new Set(partitions.filter((p) => Number(p.offset) < 0).map((p) => p.partition));
    if (uncommitted.size === 0) continue;
    const ends = (await admin.fetchTopicOffsets(topic)).filter((p) => uncommitted.has(p.partition));
    try {
      await admin.setOffsets({
        groupId,
        topic,
        partitions: ends.map((p) => ({ partition: p.partition, offset: p.high })),
      });
    } catch (error) {
      if (/must have no running instances/.test((error as Error).message)) return;
      throw error;
    }
  }
}
