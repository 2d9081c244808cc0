import type { ensureKafkaTopics } from '../kafka/kafka-topics.js';
import { KafkaNoticeChannel, type KafkaNoticeChannelDeps } from './kafka-notice-channel.js';

type Seek = { topic: string; partition: number; offset: string };
/** When the fake consumer's group join succeeds: inside run() (a broker ready), some ms after it returned, or never. */
type Join = 'during-run' | { afterMs: number } | 'never';

const GROUP_JOIN = 'consumer.group_join';

/**
 * kafkajs's consumer as the notice channel uses it. Its run() returns before any join unless the
 * join succeeds at once (kafkajs's run() also returns when its first join failed and it has
 * scheduled a restart, as against a broker whose coordinator is still loading), and its seek throws
 * what kafkajs throws while no consumer group exists. The real consumer's first join on the broker
 * is covered by notice-channel.broker.spec.ts; a coordinator still loading cannot be produced on demand.
 */
class FakeConsumer {
  readonly events = { GROUP_JOIN, CRASH: 'consumer.crash', STOP: 'consumer.stop' };
  readonly seeks: Seek[] = [];
  subscribed: string[] = [];
  private joined = false;
  private readonly listeners = new Map<string, Array<() => void>>();

  constructor(private readonly join: Join) {}

  on(event: string, listener: () => void): () => void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return () => undefined;
  }

  async connect(): Promise<void> {}

  async subscribe({ topics }: { topics: string[] }): Promise<void> {
    this.subscribed = topics;
  }

  async run(): Promise<void> {
    if (this.join === 'during-run') this.joinGroup();
    else if (this.join !== 'never') setTimeout(() => this.joinGroup(), this.join.afterMs);
  }

  seek(entry: Seek): void {
    if (!this.joined) throw new Error('Consumer group was not initialized, consumer#run must be called first');
    this.seeks.push(entry);
  }

  async disconnect(): Promise<void> {}

  private joinGroup(): void {
    this.joined = true;
    for (const listener of this.listeners.get(GROUP_JOIN) ?? []) listener();
  }
}

/** The topic setup as the channel sees it: every listened topic's end offset, without a broker. */
const ensureTopics = (async (options) => ({
  created: [],
  endOffsets: (options.endOffsetsOf ?? []).map((topic, i) => ({ topic, partition: 0, offset: String(10 + i) })),
})) as typeof ensureKafkaTopics;

function channelWith(join: Join, joinTimeoutMs = 5_000) {
  const consumer = new FakeConsumer(join);
  const producer = { connect: async () => undefined, disconnect: async () => undefined, send: async () => [] };
  const kafka = { consumer: () => consumer, producer: () => producer } as unknown as KafkaNoticeChannelDeps['kafka'];
  const gaps: number[] = [];
  const channel = new KafkaNoticeChannel(
    {
      brokers: ['127.0.0.1:9'],
      prefix: 'tg',
      allNames: ['providers-changed', 'settings-changed'],
      clientId: 'ledger-1',
      sessionTimeoutMs: 10_000,
      joinTimeoutMs,
    },
    { kafka, ensureTopics },
  );
  const handlers = { onNotice: () => undefined, onGap: () => gaps.push(Date.now()) };
  return { channel, consumer, gaps, handlers };
}

const NAMES = ['providers-changed', 'settings-changed'];
const STARTS = [
  { topic: 'tg.notice.providers-changed', partition: 0, offset: '10' },
  { topic: 'tg.notice.settings-changed', partition: 0, offset: '11' },
];

describe('KafkaNoticeChannel start', () => {
  it('seeks to the topics’ ends once a join after run() has succeeded, not before', async () => {
    const { channel, consumer, gaps, handlers } = channelWith({ afterMs: 80 });
    await channel.start(NAMES, handlers);
    expect(consumer.subscribed).toEqual(STARTS.map((s) => s.topic));
    expect(consumer.seeks).toEqual(STARTS);
    expect(gaps).toHaveLength(1);
    expect(channel.isConnected()).toBe(true);
  });

  it('seeks at once when the first join succeeds inside run()', async () => {
    const { channel, consumer, handlers } = channelWith('during-run');
    await channel.start(NAMES, handlers);
    expect(consumer.seeks).toEqual(STARTS);
    expect(channel.isConnected()).toBe(true);
  });

  it('fails to start after its bound when no join succeeds, and seeks nothing', async () => {
    const { channel, consumer, handlers } = channelWith('never', 120);
    await expect(channel.start(NAMES, handlers)).rejects.toThrow(
      'Kafka notice consumer did not join its group within 120 ms',
    );
    expect(consumer.seeks).toEqual([]);
    expect(channel.isConnected()).toBe(false);
  });

  it('refuses a join bound that is not a positive integer', () => {
    expect(() => channelWith('never', 0)).toThrow('joinTimeoutMs must be > 0');
  });
});
