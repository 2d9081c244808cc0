import type { Kafka } from 'kafkajs';

/**
 * Takeover of a killed replica's partitions at its restart, in place of Kafka's static membership.
 *
 * A member that dies without leaving its consumer group (SIGKILL, OOM kill, a lost node) keeps its
 * partitions until the broker's session timeout expires (30 s by default): the restarted replica's
 * join waits for that dead member, and the commands of its partitions stall. Kafka's own answer,
 * static membership (`group.instance.id`, KIP-345), is not implemented by kafkajs 2.2.4 (it has the
 * JoinGroup v5 encoder but never sends an instance id). So a replica does what a static member's
 * restart does: before it joins, it looks the group up and sends LeaveGroup on behalf of the members
 * that carry its own replica name (its predecessor), and the coordinator rebalances at once.
 *
 * The replica name is stable across restarts (INSTANCE_ID, else the pod's name in HOSTNAME, else the
 * host's name). Two live replicas that share a name evict each other once at start-up: the evicted
 * one rejoins at its next heartbeat (one rebalance, its uncommitted commands redelivered, and commands
 * are idempotent), so a shared name costs a second, never a lost or doubled command.
 */

export interface GroupMemberDescription {
  memberId: string;
  clientId: string;
}

/** Limit (TIGER_STYLE): a group never has more members than this worth evicting in one start. */
export const MAX_PREDECESSORS_EVICTED = 16;

/** The members of a group that are earlier incarnations of the replica whose client id is given. */
export function predecessorsOf(members: readonly GroupMemberDescription[], replicaClientId: string): string[] {
  return members
    .filter((member) => member.clientId === replicaClientId)
    .map((member) => member.memberId)
    .slice(0, MAX_PREDECESSORS_EVICTED);
}

export interface CoordinatorBroker {
  describeGroups(request: { groupIds: string[] }): Promise<{ groups: Array<{ members: GroupMemberDescription[] }> }>;
  leaveGroup(request: { groupId: string; memberId: string }): Promise<unknown>;
}
interface InternalCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  findGroupCoordinator(request: { groupId: string }): Promise<CoordinatorBroker>;
}

/**
 * kafkajs builds its broker connections through a function kept under a private symbol; the public
 * admin client can describe a group but cannot remove another member from it. kafkajs is pinned
 * (2.2.4, its last release); the broker suite fails loudly if this ever stops resolving.
 */
function internalCluster(kafka: Kafka): InternalCluster {
  const key = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  if (!key) throw new Error('kafkajs internals changed: no private:Kafka:createCluster on the client');
  const create = (kafka as unknown as Record<symbol, (options: object) => InternalCluster>)[key]!;
  return create({ allowAutoTopicCreation: false });
}

/**
 * Runs `work` against the coordinator of `groupId` within `timeoutMs`, on a connection of its own
 * that is closed afterwards. Best effort: a failure or a timeout rejects, and the caller goes on.
 */
export async function withGroupCoordinator<T>(
  kafka: Kafka,
  groupId: string,
  timeoutMs: number,
  work: (coordinator: CoordinatorBroker) => Promise<T>,
): Promise<T> {
  const cluster = internalCluster(kafka);
  let timer: NodeJS.Timeout | undefined;
  const done = (async () => {
    await cluster.connect();
    return work(await cluster.findGroupCoordinator({ groupId }));
  })();
  // After a timeout nobody awaits `done` any more: its late failure must not become an unhandled rejection.
  done.catch(() => undefined);
  try {
    return await Promise.race([
      done,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer from the group coordinator in ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await cluster.disconnect().catch(() => undefined);
  }
}

/**
 * Sends LeaveGroup for every member of `groupId` whose client id is `replicaClientId` and returns
 * their member ids. Best effort within `timeoutMs`: on any failure the caller joins anyway and the
 * broker's session timeout frees the partitions as before.
 */
export async function evictPredecessors(
  kafka: Kafka,
  groupId: string,
  replicaClientId: string,
  timeoutMs: number,
): Promise<string[]> {
  return withGroupCoordinator(kafka, groupId, timeoutMs, async (coordinator) => {
    const { groups } = await coordinator.describeGroups({ groupIds: [groupId] });
    const evicted = predecessorsOf(groups[0]?.members ?? [], replicaClientId);
    for (const memberId of evicted) await coordinator.leaveGroup({ groupId, memberId });
    return evicted;
  });
}
