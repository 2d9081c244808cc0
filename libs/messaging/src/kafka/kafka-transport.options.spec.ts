import { AssignerProtocol } from 'kafkajs';
import { ClientKafka, Transport } from '@nestjs/microservices';
import {
  assignAllReplyPartitions,
  instanceReplyAssigner,
  kafkaInstanceId,
  kafkaReplicaName,
  kafkaTransportOptions,
  parseKafkaBrokers,
  replyTopicsAssigned,
  waitForReplyTopics,
  type TopicPartitionSource,
} from './index.js';

const cluster = (partitions: Record<string, number>): TopicPartitionSource => ({
  findTopicPartitionMetadata: (topic) =>
    Array.from({ length: partitions[topic] ?? 0 }, (_, i) => ({ partitionId: partitions[topic]! - 1 - i })),
});

describe('parseKafkaBrokers', () => {
  it('reads a comma list of host:port and refuses anything else by name', () => {
    expect(parseKafkaBrokers('kafka-0:9092, kafka-1.kafka:9092,[::1]:9093')).toEqual([
      'kafka-0:9092',
      'kafka-1.kafka:9092',
      '[::1]:9093',
    ]);
    expect(() => parseKafkaBrokers(undefined)).toThrow(/KAFKA_BROKERS is required/);
    expect(() => parseKafkaBrokers(' , ')).toThrow(/1\.\.32 brokers/);
    expect(() => parseKafkaBrokers('kafka:0')).toThrow(/"kafka:0" is not host:port/);
    expect(() => parseKafkaBrokers('kafka')).toThrow(/not host:port/);
    expect(() => parseKafkaBrokers('kafka://x:9092')).toThrow(/not host:port/);
    expect(() => parseKafkaBrokers(Array.from({ length: 33 }, (_, i) => `k${i}:9092`).join(','))).toThrow(
      /1\.\.32 brokers/,
    );
  });
});

describe('kafkaInstanceId', () => {
  it('uses INSTANCE_ID, else the pod name plus pid and randomness, sanitised for Kafka names', () => {
    expect(kafkaInstanceId({ INSTANCE_ID: 'ledger-7f9c/0' })).toBe('ledger-7f9c-0');
    const a = kafkaInstanceId({ HOSTNAME: 'ledger-5d8-abcde' });
    const b = kafkaInstanceId({ HOSTNAME: 'ledger-5d8-abcde' });
    expect(a).toMatch(new RegExp(`^ledger-5d8-abcde-${process.pid}-[0-9a-f]{6}$`));
    expect(a).not.toBe(b);
    expect(kafkaInstanceId({ INSTANCE_ID: 'x'.repeat(300) })).toHaveLength(100);
  });
});

describe('kafkaReplicaName', () => {
  it('is INSTANCE_ID, else the pod name, the same for every process of the replica', () => {
    expect(kafkaReplicaName({ INSTANCE_ID: 'ledger-0', HOSTNAME: 'node-1' })).toBe('ledger-0');
    expect(kafkaReplicaName({ HOSTNAME: 'ledger-5d8-abcde' })).toBe(kafkaReplicaName({ HOSTNAME: 'ledger-5d8-abcde' }));
    expect(kafkaReplicaName({ HOSTNAME: 'ledger/0' })).toBe('ledger-0');
    expect(kafkaReplicaName({})).not.toBe('');
  });
});

describe('kafkaTransportOptions', () => {
  const env = { KAFKA_BROKERS: 'kafka:9092' };

  it('gives servers one group per service and every client instance a reply group of its own', () => {
    const a = kafkaTransportOptions(env, 'gateway-api', 'pod-a');
    const b = kafkaTransportOptions(env, 'gateway-api', 'pod-b');
    const ledger = kafkaTransportOptions(env, 'ledger', 'pod-c');
    expect(a.server.transport).toBe(Transport.KAFKA);
    expect(a.client.transport).toBe(Transport.KAFKA);
    expect(a.server.options?.consumer?.groupId).toBe('transfergate.gateway-api');
    expect(b.server.options?.consumer?.groupId).toBe(a.server.options?.consumer?.groupId);
    expect(ledger.server.options?.consumer?.groupId).toBe('transfergate.ledger');
    expect(a.client.options?.consumer?.groupId).toBe('transfergate.gateway-api.replies.pod-a');
    expect(b.client.options?.consumer?.groupId).toBe('transfergate.gateway-api.replies.pod-b');
    expect(a.client.options?.consumer?.partitionAssigners).toEqual([instanceReplyAssigner]);
    expect(a.client.options?.subscribe?.fromBeginning).toBe(false);
    expect(a.server.options?.subscribe?.fromBeginning).toBe(true);
    expect(a.server.options?.client?.brokers).toEqual(['kafka:9092']);
    expect(a.client.options?.client?.clientId).toBe('transfergate.gateway-api.pod-a.client');
    // The handler's client id names the replica, not the process: a restart finds its predecessor by it.
    const pod = kafkaTransportOptions({ ...env, HOSTNAME: 'gateway-api-0' }, 'gateway-api', 'pod-a');
    expect(pod.server.options?.client?.clientId).toBe('transfergate.gateway-api.gateway-api-0.server');
    expect(pod.serverClientId).toBe('transfergate.gateway-api.gateway-api-0.server');
    expect(a.server.options?.send?.acks).toBe(-1);
    expect(a.server.options?.run).toEqual({
      autoCommit: true,
      autoCommitThreshold: 1,
      partitionsConsumedConcurrently: 16,
    });
  });

  it('names groups and clients after MESSAGING_PREFIX, so two deployments on one broker never share a group', () => {
    const one = kafkaTransportOptions({ ...env, MESSAGING_PREFIX: 'run1' }, 'ledger', 'pod-a');
    const two = kafkaTransportOptions({ ...env, MESSAGING_PREFIX: 'run2' }, 'ledger', 'pod-a');
    expect(one.serverGroupId).toBe('run1.ledger');
    expect(two.serverGroupId).toBe('run2.ledger');
    expect(one.replyGroupId).toBe('run1.ledger.replies.pod-a');
    expect(one.client.options?.client?.clientId).toBe('run1.ledger.pod-a.client');
    expect(() => kafkaTransportOptions({ ...env, MESSAGING_PREFIX: 'a.b' }, 'ledger', 'x')).toThrow(/MESSAGING_PREFIX/);
  });

  it('creates topics with 3 partitions unless KAFKA_TOPIC_PARTITIONS says otherwise (1..64)', () => {
    expect(kafkaTransportOptions(env, 'ledger', 'x').topicPartitions).toBe(3);
    expect(kafkaTransportOptions({ ...env, KAFKA_TOPIC_PARTITIONS: '24' }, 'ledger', 'x').topicPartitions).toBe(24);
    for (const bad of ['0', '65', '2.5', 'many']) {
      expect(() => kafkaTransportOptions({ ...env, KAFKA_TOPIC_PARTITIONS: bad }, 'ledger', 'x')).toThrow(
        /KAFKA_TOPIC_PARTITIONS/,
      );
    }
  });

  it('refuses an unknown service, missing brokers and an out-of-range session timeout', () => {
    expect(() => kafkaTransportOptions(env, 'nope' as never, 'x')).toThrow(/unknown service/);
    expect(() => kafkaTransportOptions({}, 'ledger', 'x')).toThrow(/KAFKA_BROKERS is required/);
    expect(() => kafkaTransportOptions({ ...env, KAFKA_SESSION_TIMEOUT_MS: '10' }, 'ledger', 'x')).toThrow(
      /KAFKA_SESSION_TIMEOUT_MS/,
    );
    expect(
      kafkaTransportOptions({ ...env, KAFKA_SESSION_TIMEOUT_MS: '12000' }, 'ledger', 'x').server.options?.consumer,
    ).toMatchObject({ sessionTimeout: 12_000, heartbeatInterval: 1_000, maxWaitTimeInMs: 250 });
    expect(
      kafkaTransportOptions({ ...env, KAFKA_SESSION_TIMEOUT_MS: '6000' }, 'ledger', 'x').client.options?.consumer,
    ).toMatchObject({ sessionTimeout: 6_000, heartbeatInterval: 600, maxWaitTimeInMs: 250 });
  });

  it("Nest's ClientKafka uses our names as given and hands kafkajs our reply assigner", async () => {
    const options = kafkaTransportOptions(env, 'panel-api', 'pod-z').client.options!;
    let consumerConfig: Record<string, unknown> | undefined;
    // Intercepts the kafkajs client ClientKafka would create: no connection is attempted.
    class InspectedClientKafka extends ClientKafka {
      override async createClient<T>(): Promise<T> {
        return {
          consumer: (config: Record<string, unknown>) => {
            consumerConfig = config;
            throw new Error('inspected');
          },
        } as T;
      }
    }
    const client = new InspectedClientKafka(options);
    await expect(client.connect()).rejects.toThrow('inspected');
    expect(consumerConfig?.groupId).toBe('transfergate.panel-api.replies.pod-z');
    expect(consumerConfig?.partitionAssigners).toEqual([instanceReplyAssigner]);
  });
});

describe('the instance reply assigner', () => {
  it('gives the only member every partition of every reply topic, in order', () => {
    const [assignment, ...rest] = assignAllReplyPartitions(
      ['member-1'],
      ['ledger.command.reply', 'ledger.query.reply'],
      cluster({ 'ledger.command.reply': 6, 'ledger.query.reply': 3 }),
    );
    expect(rest).toEqual([]);
    expect(assignment).toEqual({
      memberId: 'member-1',
      memberAssignment: { 'ledger.command.reply': [0, 1, 2, 3, 4, 5], 'ledger.query.reply': [0, 1, 2] },
    });
  });

  it('refuses a group with two members instead of splitting the partitions', () => {
    expect(() => assignAllReplyPartitions(['a', 'b'], ['t.reply'], cluster({ 't.reply': 2 }))).toThrow(
      /exactly one member \(got 2\)/,
    );
    expect(() => assignAllReplyPartitions([], ['t.reply'], cluster({ 't.reply': 2 }))).toThrow(/got 0/);
  });

  it('encodes a kafkajs member assignment that decodes to all partitions', async () => {
    const assigner = instanceReplyAssigner({
      cluster: cluster({ 'x.reply': 4 }) as never,
      groupId: 'g',
      logger: undefined as never,
    });
    const [result] = await assigner.assign({
      members: [{ memberId: 'm', memberMetadata: Buffer.alloc(0) }],
      topics: ['x.reply'],
    });
    expect(result!.memberId).toBe('m');
    expect(AssignerProtocol.MemberAssignment.decode(result!.memberAssignment)?.assignment).toEqual({
      'x.reply': [0, 1, 2, 3],
    });
    const protocol = assigner.protocol({ topics: ['x.reply'] });
    expect(AssignerProtocol.MemberMetadata.decode(protocol.metadata)?.topics).toEqual(['x.reply']);
  });
});

describe('reply readiness', () => {
  it("follows Nest's ClientKafka assignments: ready once every reply topic is held", async () => {
    const client = new ClientKafka(
      kafkaTransportOptions({ KAFKA_BROKERS: 'kafka:9092' }, 'gateway-api', 'p').client.options!,
    );
    const patterns = ['transfergate.command.RequestDepositCommand', 'transfergate.query.FindTransactionQuery'];
    expect(replyTopicsAssigned(client, patterns)).toBe(false);
    await expect(waitForReplyTopics(client, patterns, 60, 10)).rejects.toThrow(
      /not assigned after 60 ms: transfergate.command.RequestDepositCommand.reply, transfergate.query.FindTransactionQuery.reply/,
    );
    // What kafkajs reports on GROUP_JOIN for a reply group that holds every partition of both topics.
    const join = (assignment: Record<string, number[]>) =>
      (client as unknown as { setConsumerAssignments(data: unknown): void }).setConsumerAssignments({
        payload: { memberAssignment: assignment },
      });
    join({ 'transfergate.command.RequestDepositCommand.reply': [0, 1, 2] });
    expect(replyTopicsAssigned(client, patterns)).toBe(false);
    const waiting = waitForReplyTopics(client, patterns, 5_000, 10);
    join({
      'transfergate.command.RequestDepositCommand.reply': [0, 1, 2],
      'transfergate.query.FindTransactionQuery.reply': [0, 1],
    });
    await expect(waiting).resolves.toBeUndefined();
    expect(client.getConsumerAssignments()).toEqual({
      'transfergate.command.RequestDepositCommand.reply': 0,
      'transfergate.query.FindTransactionQuery.reply': 0,
    });
  });
});
