import { AssignerProtocol, type PartitionAssigner } from 'kafkajs';

/** What the assigner needs from kafkajs's cluster: the partitions of a topic. */
export interface TopicPartitionSource {
  findTopicPartitionMetadata(topic: string): Array<{ partitionId: number }>;
}

export interface ReplyGroupAssignment {
  memberId: string;
  memberAssignment: Record<string, number[]>;
}

/**
 * The reply group of one client instance has exactly one member, which takes every partition of
 * every reply topic. A second member means two processes share an instance id: refuse loudly
 * (the join fails) rather than split the partitions and lose replies.
 */
export function assignAllReplyPartitions(
  memberIds: string[],
  topics: string[],
  cluster: TopicPartitionSource,
): ReplyGroupAssignment[] {
  if (memberIds.length !== 1) {
    throw new Error(
      `a reply consumer group must have exactly one member (got ${memberIds.length}): two instances share an INSTANCE_ID`,
    );
  }
  const memberAssignment: Record<string, number[]> = {};
  for (const topic of [...topics].sort()) {
    const partitions = cluster.findTopicPartitionMetadata(topic).map((p) => p.partitionId);
    memberAssignment[topic] = [...new Set(partitions)].sort((a, b) => a - b);
  }
  return [{ memberId: memberIds[0]!, memberAssignment }];
}

/** kafkajs PartitionAssigner over `assignAllReplyPartitions`. */
export const instanceReplyAssigner: PartitionAssigner = ({ cluster }) => ({
  name: 'TransfergateInstanceReplyAssigner',
  version: 1,
  async assign({ members, topics }) {
    return assignAllReplyPartitions(
      members.map((member) => member.memberId),
      topics,
      cluster as unknown as TopicPartitionSource,
    ).map(({ memberId, memberAssignment }) => ({
      memberId,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({
        version: 1,
        assignment: memberAssignment,
        userData: Buffer.alloc(0),
      }),
    }));
  },
  protocol({ topics }) {
    return {
      name: 'TransfergateInstanceReplyAssigner',
      metadata: AssignerProtocol.MemberMetadata.encode({ version: 1, topics, userData: Buffer.alloc(0) }),
    };
  },
});
