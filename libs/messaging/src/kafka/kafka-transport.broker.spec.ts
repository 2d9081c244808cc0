import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientKafka, MessagePattern, Payload, type MicroserviceOptions } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { kafkaTransportOptions, waitForReplyTopics } from './index.js';

/**
 * Request-reply over a real Kafka broker. Kafka cannot run on our machines: without KAFKA_BROKERS
 * this suite is reported as skipped (never as passed), with the reason printed.
 */
const brokers = process.env.KAFKA_BROKERS;
const describeWithBroker = brokers ? describe : describe.skip;
if (!brokers)
  // Jest hides console output of a suite that only skips: write the reason straight to stderr.
  process.stderr.write(
    'SKIPPED kafka-transport.broker.spec: set KAFKA_BROKERS=host:port to run it against a real Kafka broker\n',
  );

const PATTERN = `transfergate.test.echo.${randomUUID().slice(0, 8)}`;

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
  const env = { KAFKA_BROKERS: brokers };
  let server: Awaited<ReturnType<typeof NestFactory.createMicroservice>>;
  const clients: ClientKafka[] = [];

  beforeAll(async () => {
    server = await NestFactory.createMicroservice<MicroserviceOptions>(EchoModule, {
      ...kafkaTransportOptions(env, 'ledger', `srv-${randomUUID().slice(0, 8)}`).server,
      logger: false,
    } as never);
    await server.listen();
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await server?.close();
  });

  const newClient = async (instanceId: string) => {
    const client = new ClientKafka(kafkaTransportOptions(env, 'gateway-api', instanceId).client.options!);
    client.subscribeToResponseOf(PATTERN);
    await client.connect();
    clients.push(client);
    await waitForReplyTopics(client, [PATTERN], 60_000);
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
});
