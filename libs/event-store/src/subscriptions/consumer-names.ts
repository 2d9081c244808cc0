/**
 * Consumers that feed another engine (KurrentDB, MongoDB) from the store of record carry this prefix.
 * Their lag is reported like any consumer's (metrics, /ready's details) but does not make a process
 * unready: the answers of every process come from PostgreSQL, so an engine that is down or behind
 * must not take the public API out of its load balancer.
 */
export const ENGINE_FEED_CONSUMER_PREFIX = 'engine-feed:';

export function isEngineFeedConsumer(consumer: string): boolean {
  return consumer.startsWith(ENGINE_FEED_CONSUMER_PREFIX);
}
