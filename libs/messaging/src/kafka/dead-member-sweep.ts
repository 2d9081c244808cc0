import type { Kafka } from 'kafkajs';
import { withGroupCoordinator, type GroupMemberDescription } from './predecessor-takeover.js';

/**
 * Takeover of a replica that dies for good (its pod replaced under a new name, a node lost): no
 * restart of it ever removes it from its group, so on its own Kafka hands its partitions out only
 * when its session times out (30 s), and their commands wait that long. Every live replica of a
 * service therefore asks, once per DEAD_MEMBER_SWEEP_MS, which members of its group belong to a
 * process that is gone (ReplicaLiveness: the database sees the dead process's session end at once)
 * and sends LeaveGroup on their behalf; the coordinator rebalances at once.
 *
 * A member is evicted only after two sweeps in a row find it dead, so a database restart (which
 * ends every session for the second it takes the replicas to reconnect) evicts nobody; a wrong
 * eviction would cost a rebalance, never a lost or doubled command (commands are idempotent).
 */

/** What the sweep needs to know of the replicas' liveness (implemented over PostgreSQL in libs/event-store). */
export interface ReplicaLiveness {
  register(clientId: string): Promise<void>;
  deadAmong(clientIds: readonly string[]): Promise<Set<string>>;
  isLive(): boolean;
  close(): Promise<void>;
}

export const DEAD_MEMBER_SWEEP_MS = 1_000;
/** Limit (TIGER_STYLE): members evicted by one sweep. */
export const MAX_DEAD_MEMBERS_EVICTED = 16;
/** A sweep that the coordinator does not answer in this long is dropped (the next one tries again). */
export const DEAD_MEMBER_SWEEP_TIMEOUT_MS = 2_000;

export interface SweepVerdict {
  /** Member ids to remove from the group now. */
  evict: string[];
  /** Member ids found dead this time, evicted if the next sweep finds them dead too. */
  suspects: Set<string>;
}

/**
 * Decides one sweep: of the group's members other than this replica, those whose client id is
 * dead and that the previous sweep suspected already are evicted; the dead ones are suspected.
 */
export function judgeMembers(
  members: readonly GroupMemberDescription[],
  deadClientIds: ReadonlySet<string>,
  ownClientId: string,
  previousSuspects: ReadonlySet<string>,
): SweepVerdict {
  const suspects = new Set<string>();
  const evict: string[] = [];
  for (const member of members) {
    if (member.clientId === ownClientId || !deadClientIds.has(member.clientId)) continue;
    suspects.add(member.memberId);
    if (previousSuspects.has(member.memberId) && evict.length < MAX_DEAD_MEMBERS_EVICTED) evict.push(member.memberId);
  }
  return { evict, suspects };
}

/** One sweep of `groupId`: returns the verdict it acted on (LeaveGroup sent for `evict`). */
export async function sweepDeadMembers(
  kafka: Kafka,
  groupId: string,
  ownClientId: string,
  liveness: ReplicaLiveness,
  previousSuspects: ReadonlySet<string>,
): Promise<SweepVerdict> {
  return withGroupCoordinator(kafka, groupId, DEAD_MEMBER_SWEEP_TIMEOUT_MS, async (coordinator) => {
    const { groups } = await coordinator.describeGroups({ groupIds: [groupId] });
    const members = groups[0]?.members ?? [];
    const others = [...new Set(members.map((m) => m.clientId).filter((id) => id !== ownClientId))];
    if (others.length === 0 || !liveness.isLive()) return { evict: [], suspects: new Set<string>() };
    const verdict = judgeMembers(members, await liveness.deadAmong(others), ownClientId, previousSuspects);
    for (const memberId of verdict.evict) {
      // Another live replica may have removed it first: the coordinator then answers an unknown member.
      await coordinator.leaveGroup({ groupId, memberId }).catch(() => undefined);
    }
    return verdict;
  });
}
