import type { ClientKafka } from '@nestjs/microservices';
import { seekToStart, type TopicPartitionOffset } from './kafka-topics.js';

/**
 * Nest's ClientKafka can send a request only once its reply consumer has joined its group: before
 * that, `send()` fails at once (no assignment for `<pattern>.reply`). A service is ready over Kafka
 * when its client holds a partition of every reply topic it will use.
 */
export function replyTopicsAssigned(
  client: Pick<ClientKafka, 'getConsumerAssignments'>,
  patterns: readonly string[],
): boolean {
  const assignments = client.getConsumerAssignments();
  return patterns.every((pattern) => assignments[`${pattern}.reply`] !== undefined);
}

/** Resolves when every reply topic is assigned; rejects after `timeoutMs` naming the missing ones. */
export async function waitForReplyTopics(
  client: Pick<ClientKafka, 'getConsumerAssignments'>,
  patterns: readonly string[],
  timeoutMs: number,
  pollMs = 50,
): Promise<void> {
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new RangeError('timeoutMs must be a positive integer');
  const deadline = Date.now() + timeoutMs;
  while (!replyTopicsAssigned(client, patterns)) {
    if (Date.now() >= deadline) {
      const assigned = client.getConsumerAssignments();
      const missing = patterns.map((p) => `${p}.reply`).filter((topic) => assigned[topic] === undefined);
      throw new Error(`Kafka reply topics not assigned after ${timeoutMs} ms: ${missing.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * Moves a new reply group to where its replies start (seekToStart) once it has joined. ClientKafka's
 * connect() returns when kafkajs's run() does, and run() also returns when the first join failed
 * and a restart is scheduled: a broker that has just started answers "the coordinator is loading"
 * for a while, and until the restart joins there is no group to seek in (a ledger exited on it in
 * CI). ClientKafka records each join's assignments, so a reply topic assigned means a group joined.
 * Bounded by `timeoutMs` like every wait at start; the caller fails to start after it.
 */
export async function seekRepliesOnceJoined(
  client: Pick<ClientKafka, 'getConsumerAssignments'> & {
    consumer: { seek(entry: { topic: string; partition: number; offset: string }): void };
  },
  patterns: readonly string[],
  starts: readonly TopicPartitionOffset[],
  timeoutMs: number,
): Promise<void> {
  await waitForReplyTopics(client, patterns, timeoutMs);
  seekToStart(client.consumer, starts);
}
