import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientKafka, MessagePattern, Payload, type MicroserviceOptions } from '@nestjs/microservices';
import { Kafka, logLevel } from 'kafkajs';
import { firstValueFrom, timeout } from 'rxjs';
import { kafkaBrokersFor } from '../../../../test/support/kafka.js';
import { ensureKafkaTopics, kafkaTransportOptions, requestAndReplyTopics, seekRepliesOnceJoined } from './index.js';

/**
 * Request-reply over a real Kafka broker (`npm run kafka:local`; CI runs it). Without KAFKA_BROKERS
 * this suite is reported as skipped (never as passed), with the reason printed; with REQUIRE_KAFKA=1
 * it fails instead.
 */
const brokers = kafkaBrokersFor('kafka-transport.broker.spec');
const describeWithBroker = brokers ? describe : describe.skip;

const PREFIX = `t${randomUUID().slice(0, 8)}`;
const PATTERN = `${PREFIX}.test.echo`;

@Controller()
class EchoController {
  @MessagePattern(PATTERN)
  echo(@Payload() body: { n: number; from: string }) {
    return { n: body.n, from: body.from, doubled: body.n * 2 };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describeWithBroker('Kafka request-reply on a real broker', () => {
  const env = { KAFKA_BROKERS: brokers, MESSAGING_PREFIX: PREFIX };
  let server: Awaited<ReturnType<typeof NestFactory.createMicroservice>>;
  const clients: ClientKafka[] = [];

  beforeAll(async () => {
    const options = kafkaTransportOptions(env, 'ledger', `srv-${randomUUID().slice(0, 8)}`);
    await ensureKafkaTopics({
      brokers: options.brokers,
      clientId: options.clientId,
      topics: requestAndReplyTopics([PATTERN]),
      timeoutMs: 60_000,
    });
    server = await NestFactory.createMicroservice<MicroserviceOptions>(EchoModule, {
      ...options.server,
      logger: false,
    } as never);
    await server.listen();
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await server?.close();
  });

  const newClient = async (instanceId: string) => {
    const options = kafkaTransportOptions(env, 'gateway-api', instanceId);
    // What RemoteBusBridge does: the new reply group reads from the reply topic's end before connecting.
    const { endOffsets } = await ensureKafkaTopics({
      brokers: options.brokers,
      clientId: options.clientId,
      topics: [`${PATTERN}.reply`],
      timeoutMs: 60_000,
      endOffsetsOf: [`${PATTERN}.reply`],
    });
    const client = new ClientKafka(options.client.options!);
    client.subscribeToResponseOf(PATTERN);
    await client.connect();
    clients.push(client);
    await seekRepliesOnceJoined(client, [PATTERN], endOffsets, 60_000);
    return client;
  };

  it('two caller instances each get their own replies, also while a third joins and leaves', async () => {
    const a = await newClient(`a-${randomUUID().slice(0, 8)}`);
    const b = await newClient(`b-${randomUUID().slice(0, 8)}`);
    const ask = (client: ClientKafka, from: string, n: number) =>
      firstValueFrom(client.send(PATTERN, { n, from }).pipe(timeout(30_000)));
    const joining = newClient(`c-${randomUUID().slice(0, 8)}`).then((c) => c.close());
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, (_, n) => ask(a, 'a', n)),
      ...Array.from({ length: 20 }, (_, n) => ask(b, 'b', n)),
    ]);
    await joining;
    expect(answers).toEqual([
      ...Array.from({ length: 20 }, (_, n) => ({ n, from: 'a', doubled: n * 2 })),
      ...Array.from({ length: 20 }, (_, n) => ({ n, from: 'b', doubled: n * 2 })),
    ]);
  }, 180_000);

  // The broker answers metadata for a topic it has just created with UNKNOWN_TOPIC_OR_PARTITION for a
  // moment (KRaft: the broker's metadata trails the controller). kafkajs's createTopics with
  // waitForLeaders gave up on that answer: a ledger failed to start in CI, and with it this test
  // failed within its 20 rounds here (kafkajs's createTopics alone: 17-20 failures in 20 rounds, now
  // and then none).
  it('creates fresh topics round after round, and every partition of each has a leader when it returns', async () => {
    const ROUNDS = 20;
    const TOPICS_PER_ROUND = 10;
    const PARTITIONS = 3;
    const admin = new Kafka({ clientId: `${PREFIX}.check`, brokers: [brokers!], logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const topics = Array.from({ length: TOPICS_PER_ROUND }, (_, i) => `${PREFIX}.fresh.${round}.${i}`);
        const { created } = await ensureKafkaTopics({
          brokers: [brokers!],
          clientId: `${PREFIX}.fresh`,
          topics,
          partitions: PARTITIONS,
          timeoutMs: 60_000,
        });
        expect(created.sort()).toEqual([...topics].sort());
        const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
        for (const topic of metadata) {
          expect(topic.partitions.map((p) => p.leader >= 0)).toEqual(Array.from({ length: PARTITIONS }, () => true));
        }
        // The broker is shared by every Kafka suite in the run (and has a bounded heap): leave nothing.
        await admin.deleteTopics({ topics });
      }
    } finally {
      await admin.disconnect();
    }
  }, 180_000);
});
