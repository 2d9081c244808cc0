import type { ClientKafka } from '@nestjs/microservices';

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
