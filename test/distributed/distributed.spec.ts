import { TRANSPORTS, useDistributedCluster } from './distributed-fixture.js';
import { registerCacheNotices } from './scenarios/cache-notices.js';
import { registerChaos } from './scenarios/chaos.js';
import { registerReadYourWrites } from './scenarios/read-your-writes.js';
import { registerSurface } from './scenarios/surface.js';

/**
 * Distributed mode end to end: the five services as separate processes on one PostgreSQL schema and
 * one transport (two ledgers, two dispatchers), run once over NATS and once over Kafka (a real Apache
 * Kafka broker: `npm run kafka:local`, KAFKA_BROKERS; skipped without it, failed under REQUIRE_KAFKA=1), driven only over HTTP like production traffic. Then one ledger
 * and one dispatcher are killed with SIGKILL while requests and callbacks are in flight, restarted,
 * and nothing may be lost or doubled.
 *
 * Delivery semantics checked here: each final transaction gets exactly one webhook-id; a dispatcher
 * killed after POSTing but before recording the answer re-sends the same webhook-id after its lease
 * (at-least-once on the wire), so the receiver deduplicates by webhook-id, as Standard Webhooks asks.
 *
 * The cluster is booted once per transport, here; the scenarios (./scenarios/) run on it in this order
 * and build on each other: the chaos run counts the transactions and callbacks of the approval before it.
 */
for (const transport of TRANSPORTS)
  (transport.available ? describe : describe.skip)(
    `distributed mode: five services as processes on PostgreSQL + ${transport.name}`,
    () => {
      const fixture = useDistributedCluster(transport);
      registerSurface(fixture);
      registerCacheNotices(fixture);
      registerChaos(fixture);
      registerReadYourWrites(fixture);
    },
  );
