import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Logger, Module, type INestApplicationContext, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommandBus, CommandHandler, CqrsModule } from '@nestjs/cqrs';
import { DomainError } from '@transfergate/contracts';
import {
  createTransportServer,
  RemoteBusModule,
  subjectOf,
  transportConfigFrom,
  type MessageCatalog,
  type TransportConfig,
} from '@transfergate/messaging';
import { Kafka, logLevel } from 'kafkajs';
import { kafkaBrokersFor } from '../support/kafka.js';

/**
 * The failure modes the Kafka transport promises to survive
 * (docs/decisions/0013-commands-between-processes.md), on a real Apache Kafka broker: callers joining and leaving, a handler instance dropping out of its group in the
 * middle of a command, a poison message, the broker restarted under load. The handler here is
 * idempotent by command id, as the ledger is by event id, so a redelivered command is answered but
 * applied once. Runs with KAFKA_BROKERS (`npm run kafka:local`); the restart test starts a broker of
 * its own on another port with the same script, so the shared broker is never disturbed.
 */
const brokers = kafkaBrokersFor('kafka-failures.spec');
const describeWithBroker = brokers ? describe : describe.skip;
const execFileAsync = promisify(execFile);

/** The broker's minimum: a handler instance that stops heartbeating is out of its group after 6 s. */
const SESSION_TIMEOUT_MS = 6_000;
/** Longer than the session: the instance stalling on a command is evicted while it holds it. */
const STALL_MS = 9_000;

class WorkCommand extends Command<{ id: string; appliedBy: string }> {
  constructor(
    readonly id: string,
    readonly delayMs: number,
    readonly stallOn?: string,
  ) {
    super();
  }
}
const CATALOG: MessageCatalog = { commands: [WorkCommand], queries: [] };

/** What the handlers did: applied once per id (the idempotent effect), delivered possibly more often. */
const effects = { applied: new Map<string, string>(), deliveries: new Map<string, number>() };

function ownerModule(instance: string) {
  @CommandHandler(WorkCommand)
  class WorkHandler {
    async execute(command: WorkCommand) {
      effects.deliveries.set(command.id, (effects.deliveries.get(command.id) ?? 0) + 1);
      await sleep(command.stallOn === instance ? STALL_MS : command.delayMs);
      if (!effects.applied.has(command.id)) effects.applied.set(command.id, instance);
      return { id: command.id, appliedBy: effects.applied.get(command.id)! };
    }
  }
  return WorkHandler;
}

function kafkaTransport(brokerList: string, prefix: string, commandTimeoutMs: number): TransportConfig {
  return transportConfigFrom({
    TRANSPORT: 'kafka',
    KAFKA_BROKERS: brokerList,
    MESSAGING_PREFIX: prefix,
    KAFKA_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
    COMMAND_TIMEOUT_MS: String(commandTimeoutMs),
  });
}

async function startOwner(transport: TransportConfig, instance: string): Promise<INestMicroservice> {
  const server = createTransportServer(transport, 'ledger');
  @Module({
    imports: [CqrsModule, RemoteBusModule.forRoot({ service: 'ledger', transport, catalog: CATALOG, server })],
    providers: [ownerModule(instance)],
  })
  class OwnerModule {}
  const app = await NestFactory.createMicroservice(OwnerModule, { strategy: server, logger: false });
  await app.listen();
  return app;
}

async function startCaller(transport: TransportConfig): Promise<INestApplicationContext> {
  @Module({ imports: [CqrsModule, RemoteBusModule.forRoot({ service: 'gateway-api', transport, catalog: CATALOG })] })
  class CallerModule {}
  return NestFactory.createApplicationContext(CallerModule, { logger: false });
}

const send = (caller: INestApplicationContext, command: WorkCommand) => caller.get(CommandBus).execute(command);
const newId = () => randomBytes(6).toString('hex');

describeWithBroker('the Kafka transport on a real broker: failure modes', () => {
  const prefix = `t${randomBytes(5).toString('hex')}`;
  let transport: TransportConfig;
  const apps: INestApplicationContext[] = [];
  let ownerA: INestMicroservice;
  let caller: INestApplicationContext;

  beforeAll(async () => {
    transport = kafkaTransport(brokers!, prefix, 30_000);
    ownerA = await startOwner(transport, 'a');
    apps.push(ownerA, await startOwner(transport, 'b'));
    caller = await startCaller(transport);
    apps.push(caller);
  }, 120_000);

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close().catch(() => undefined);
  }, 60_000);

  it('loses no reply while a second caller instance joins and leaves with requests in flight', async () => {
    const ids = Array.from({ length: 40 }, newId);
    const inFlight = ids.map((id, i) => send(caller, new WorkCommand(id, 20 + (i % 5) * 40)));
    // The second instance of the caller starts, asks, and leaves while the first one's requests run.
    const second = await startCaller(transport);
    const secondIds = Array.from({ length: 10 }, newId);
    const secondAnswers = await Promise.all(secondIds.map((id) => send(second, new WorkCommand(id, 10))));
    await second.close();
    const more = Array.from({ length: 20 }, newId);
    const answers = await Promise.all([...inFlight, ...more.map((id) => send(caller, new WorkCommand(id, 10)))]);
    expect(answers.map((a) => a.id)).toEqual([...ids, ...more]);
    expect(secondAnswers.map((a) => a.id)).toEqual(secondIds);
  }, 120_000);

  it('answers and applies once a command whose handler instance left its group in the middle of it', async () => {
    const ids = Array.from({ length: 12 }, newId);
    // Instance "a" stalls on each command it receives, longer than its session: the broker drops it
    // from the group while it holds them, and "b" is given the same uncommitted commands again.
    const answers = await Promise.all(ids.map((id) => send(caller, new WorkCommand(id, 10, 'a'))));
    expect(answers.map((a) => a.id)).toEqual(ids);
    for (const id of ids) expect([id, effects.applied.has(id)]).toEqual([id, true]);
    const redelivered = ids.filter((id) => (effects.deliveries.get(id) ?? 0) > 1);
    // With 3 partitions and two members, "a" held some: those commands were delivered twice.
    expect(redelivered.length).toBeGreaterThan(0);
    for (const id of redelivered) expect(effects.applied.get(id)).toBeDefined();
    // Idempotent: the answer names the one application, whoever answered first.
    for (const answer of answers) expect(answer.appliedBy).toBe(effects.applied.get(answer.id));
  }, 120_000);

  it('refuses and logs a poison message, and the commands behind it in its partition are answered', async () => {
    const topic = subjectOf(prefix, 'command', WorkCommand);
    let restoreWarn = () => {};
    const producer = new Kafka({
      clientId: `${prefix}.poison`,
      brokers: [brokers!],
      logLevel: logLevel.NOTHING,
    }).producer();
    await producer.connect();
    try {
      const { partitions } = await (async () => {
        const admin = new Kafka({
          clientId: `${prefix}.poison-admin`,
          brokers: [brokers!],
          logLevel: logLevel.NOTHING,
        }).admin();
        await admin.connect();
        try {
          return (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]!;
        } finally {
          await admin.disconnect();
        }
      })();
      // What the bridge logs (Nest's loggers are switched off in these apps; the call still happens).
      const warnings: string[] = [];
      const warn = Logger.prototype.warn;
      Logger.prototype.warn = function (this: Logger, message: unknown, ...rest: unknown[]) {
        warnings.push(String(message));
        return warn.call(this, message, ...(rest as []));
      };
      restoreWarn = () => (Logger.prototype.warn = warn);
      // Into every partition: not JSON, JSON of the wrong shape, and a tagged value that cannot decode.
      await producer.send({
        topic,
        messages: partitions.flatMap(({ partitionId }) => [
          { partition: partitionId, value: Buffer.from([0xff, 0xfe, 0x00, 0x01]) },
          { partition: partitionId, value: 'not json {' },
          { partition: partitionId, value: JSON.stringify({ message: 'a string, not fields' }) },
        ]),
      });
      const ids = Array.from({ length: 12 }, newId);
      const answers = await Promise.all(ids.map((id) => send(caller, new WorkCommand(id, 5))));
      expect(answers.map((a) => a.id)).toEqual(ids);
      const deadline = Date.now() + 10_000;
      const refusals = () => warnings.filter((line) => line.includes('refused a malformed message'));
      while (refusals().length < partitions.length * 2 && Date.now() < deadline) await sleep(100);
      expect(refusals().length).toBeGreaterThanOrEqual(partitions.length * 2);
      expect(refusals()[0]).toContain(topic);
    } finally {
      restoreWarn();
      await producer.disconnect();
    }
  }, 120_000);
});

describeWithBroker('the Kafka transport on a real broker: the broker restarted under load', () => {
  // A broker of this test's own (same script, another port), so stopping it disturbs no other suite.
  const port = 19_092;
  const ownBroker = `127.0.0.1:${port}`;
  const script = (command: 'start' | 'stop') =>
    execFileAsync(process.execPath, ['scripts/kafka-local.mjs', command, '--port', String(port)], {
      timeout: 180_000,
    });
  const apps: INestApplicationContext[] = [];

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close().catch(() => undefined);
    await script('stop');
  }, 120_000);

  it('answers 503 unavailable while the broker is down and recovers without restarting the services', async () => {
    await script('start');
    const transport = kafkaTransport(ownBroker, `t${randomBytes(5).toString('hex')}`, 2_000);
    apps.push(await startOwner(transport, 'r'));
    const caller = await startCaller(transport);
    apps.push(caller);
    const outcome = async () =>
      send(caller, new WorkCommand(newId(), 5)).then(
        () => 'ok',
        (error: unknown) => (error instanceof DomainError ? error.errorCode : String(error)),
      );
    expect(await Promise.all(Array.from({ length: 10 }, outcome))).toEqual(Array(10).fill('ok'));

    // Load keeps coming while the broker stops and starts again.
    let loading = true;
    const seen: string[] = [];
    const load = (async () => {
      while (loading) {
        seen.push(...(await Promise.all(Array.from({ length: 4 }, outcome))));
        await sleep(100);
      }
    })();
    await sleep(500);
    await script('stop');
    const downAnswers = await Promise.all(Array.from({ length: 4 }, outcome));
    expect(downAnswers).toEqual(Array(4).fill('unavailable'));
    await script('start');

    // Recovered: the same processes answer again, within a minute of the broker's return.
    const deadline = Date.now() + 60_000;
    let recovered = false;
    while (!recovered && Date.now() < deadline) {
      recovered = (await Promise.all(Array.from({ length: 5 }, outcome))).every((o) => o === 'ok');
      if (!recovered) await sleep(500);
    }
    loading = false;
    await load;
    expect(recovered).toBe(true);
    // Under load every answer was either a success or 503 unavailable: nothing else, no crash.
    expect(new Set(seen)).toEqual(new Set(['ok', 'unavailable']));
  }, 300_000);
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
