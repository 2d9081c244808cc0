import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { HttpException, Module, type INestApplicationContext, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommandBus, CommandHandler, CqrsModule, Query, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '@transfergate/contracts';
import {
  createTransportServer,
  fromWire,
  RemoteBusModule,
  toWire,
  transportConfigFrom,
  type MessageCatalog,
  type TransportConfig,
} from '@transfergate/messaging';

/**
 * The remote bus over the real NATS server (127.0.0.1:4222): one "owner" application handles the
 * messages, another application in the same test sends them through its ordinary CommandBus/QueryBus.
 */
class ReserveCommand extends Command<{ doubledKurus: bigint; at: Date; note?: string }> {
  constructor(
    readonly amountKurus: bigint,
    readonly at: Date,
    readonly delayMs: number,
    readonly note?: string,
  ) {
    super();
  }
}
class RefuseCommand extends Command<void> {
  constructor(readonly how: 'domain' | 'http' | 'crash') {
    super();
  }
}
class CountQuery extends Query<{ calls: number }> {}

const calls = { reserve: 0, byInstance: new Map<string, number>() };

function ownerModule(instance: string) {
  @CommandHandler(ReserveCommand)
  class ReserveHandler {
    async execute(command: ReserveCommand) {
      expect(command).toBeInstanceOf(ReserveCommand);
      calls.reserve++;
      calls.byInstance.set(instance, (calls.byInstance.get(instance) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, command.delayMs));
      return { doubledKurus: command.amountKurus * 2n, at: command.at, note: command.note };
    }
  }
  @CommandHandler(RefuseCommand)
  class RefuseHandler {
    execute(command: RefuseCommand): void {
      if (command.how === 'domain') {
        throw new DomainError('insufficient_balance', 'balance too low', { shortKurus: 500n });
      }
      if (command.how === 'http') throw new HttpException({ errorCode: 'rate_limited', message: 'slow down' }, 429);
      throw new TypeError('boom');
    }
  }
  @QueryHandler(CountQuery)
  class CountHandler {
    execute(): { calls: number } {
      return { calls: calls.reserve };
    }
  }
  return { handlers: [ReserveHandler, RefuseHandler, CountHandler] };
}

const CATALOG: MessageCatalog = { commands: [ReserveCommand, RefuseCommand], queries: [CountQuery] };
/** The impatient caller's timeout; the other caller waits 10 s, so a loaded machine cannot fail it. */
const TIMEOUT_MS = 600;
/** The slow command outlives the timeout by far, so "answered at the timeout" is unambiguous. */
const SLOW_HANDLER_MS = TIMEOUT_MS * 10;

describe('remote command/query bus over NATS', () => {
  let transport: TransportConfig;
  const owners: INestMicroservice[] = [];
  let caller: INestApplicationContext;
  let impatient: INestApplicationContext;

  async function startOwner(instance: string): Promise<INestMicroservice> {
    const server = createTransportServer(transport, 'ledger');
    const { handlers } = ownerModule(instance);
    @Module({
      imports: [CqrsModule, RemoteBusModule.forRoot({ service: 'ledger', transport, catalog: CATALOG, server })],
      providers: handlers,
    })
    class OwnerModule {}
    const app = await NestFactory.createMicroservice(OwnerModule, { strategy: server, logger: false });
    await app.listen();
    owners.push(app);
    return app;
  }

  beforeAll(async () => {
    const env = {
      MESSAGING_PREFIX: `t${randomBytes(5).toString('hex')}`,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    };
    transport = transportConfigFrom(env);
    const impatientTransport = transportConfigFrom({ ...env, COMMAND_TIMEOUT_MS: String(TIMEOUT_MS) });
    await startOwner('a');
    await startOwner('b');
    @Module({
      imports: [CqrsModule, RemoteBusModule.forRoot({ service: 'gateway-api', transport, catalog: CATALOG })],
    })
    class CallerModule {}
    caller = await NestFactory.createApplicationContext(CallerModule, { logger: false });
    @Module({
      imports: [
        CqrsModule,
        RemoteBusModule.forRoot({ service: 'gateway-api', transport: impatientTransport, catalog: CATALOG }),
      ],
    })
    class ImpatientCallerModule {}
    impatient = await NestFactory.createApplicationContext(ImpatientCallerModule, { logger: false });
  });

  afterAll(async () => {
    await caller?.close();
    await impatient?.close();
    for (const app of owners) await app.close();
  });

  it('carries bigint money and dates both ways, into the real command class', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const result = await caller.get(CommandBus).execute(new ReserveCommand(12_345_678_901_234_567n, at, 0, 'ş'));
    expect(result).toEqual({ doubledKurus: 24_691_357_802_469_134n, at, note: 'ş' });
    expect(typeof result.doubledKurus).toBe('bigint');
    expect(result.at).toBeInstanceOf(Date);
  });

  it('rethrows a DomainError with its code, message and details, an HttpException with its status', async () => {
    const bus = caller.get(CommandBus);
    const domain = await bus.execute(new RefuseCommand('domain')).catch((e: unknown) => e);
    expect(domain).toBeInstanceOf(DomainError);
    expect(domain).toMatchObject({
      errorCode: 'insufficient_balance',
      message: 'balance too low',
      details: { shortKurus: 500n },
    });
    const http = await bus.execute(new RefuseCommand('http')).catch((e: unknown) => e);
    expect(http).toBeInstanceOf(HttpException);
    expect((http as HttpException).getStatus()).toBe(429);
    expect((http as HttpException).getResponse()).toEqual({ errorCode: 'rate_limited', message: 'slow down' });
    const crash = await bus.execute(new RefuseCommand('crash')).catch((e: unknown) => e);
    expect(crash).toBeInstanceOf(Error);
    expect(crash).not.toBeInstanceOf(DomainError);
    expect((crash as Error).message).toBe('boom');
  });

  it('answers 503 unavailable after timeoutMs and never re-sends the command', async () => {
    const before = calls.reserve;
    const started = Date.now();
    const error = await impatient
      .get(CommandBus)
      .execute(new ReserveCommand(1n, new Date(), SLOW_HANDLER_MS))
      .catch((e: unknown) => e);
    const waitedMs = Date.now() - started;
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).errorCode).toBe('unavailable');
    expect(waitedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(waitedMs).toBeLessThan(SLOW_HANDLER_MS / 2);
    await new Promise((r) => setTimeout(r, SLOW_HANDLER_MS + 500));
    expect(calls.reserve - before).toBe(1);
  });

  it('gives each message to exactly one instance of the owning service (queue group), both instances working', async () => {
    const before = calls.reserve;
    calls.byInstance.clear();
    const bus = caller.get(CommandBus);
    await Promise.all(Array.from({ length: 60 }, (_, i) => bus.execute(new ReserveCommand(BigInt(i), new Date(), 5))));
    expect(calls.reserve - before).toBe(60);
    expect(calls.byInstance.get('a')).toBeGreaterThan(0);
    expect(calls.byInstance.get('b')).toBeGreaterThan(0);
    expect((await caller.get(QueryBus).execute(new CountQuery())).calls).toBe(calls.reserve);
  });

  it('refuses values JSON cannot carry faithfully instead of sending something else', () => {
    expect(() => toWire({ $bigint: '1' })).toThrow(/reserved/);
    expect(() => toWire(Number.NaN)).toThrow(/non-finite/);
    expect(() => toWire(() => 1)).toThrow(/function/);
    expect(fromWire(toWire({ a: [1n, new Date(0), Buffer.from('x'), undefined, null] }))).toEqual({
      a: [1n, new Date(0), Buffer.from('x'), null, null],
    });
  });
});
