import 'reflect-metadata';
import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule, EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { PROCESS_NOTICES, ProviderDirectoryChanged, type ProcessNotices } from '@transfergate/contracts';
import { transportConfigFrom } from '../transport.js';
import type { NoticeChannel, NoticeChannelHandlers } from './notice-channel.js';
import { ANNOUNCE_TIMEOUT_MS, ProcessNoticesBridge, ProcessNoticesModule } from './process-notices.js';

/**
 * The bridge between a process's EventBus and the notice channel, as two service processes would
 * hold it (one announcing, one with a handler), over the real NATS server.
 */
@Injectable()
@EventsHandler(ProviderDirectoryChanged)
class CountingHandler implements IEventHandler<ProviderDirectoryChanged> {
  heard = 0;
  handle(): void {
    this.heard++;
  }
}

@Module({ imports: [CqrsModule], providers: [CountingHandler] })
class ListeningModule {}

@Module({ imports: [CqrsModule] })
class SilentModule {}

/** A channel whose transport never confirms anything, or reports a gap on demand (what NATS cannot be made to do here). */
class UnconfirmingChannel implements NoticeChannel {
  handlers?: NoticeChannelHandlers;
  published: string[] = [];
  connected = false;
  async start(_names: readonly string[], handlers: NoticeChannelHandlers): Promise<void> {
    this.handlers = handlers;
    this.connected = true;
  }
  isConnected(): boolean {
    return this.connected;
  }
  publish(name: string): Promise<void> {
    this.published.push(name);
    return new Promise(() => undefined);
  }
  async close(): Promise<void> {}
}

describe('ProcessNoticesBridge', () => {
  const prefix = `t${randomUUID().slice(0, 8)}`;
  const transport = transportConfigFrom({ MESSAGING_PREFIX: prefix, NATS_URL: process.env.NATS_URL });
  const apps: INestApplicationContext[] = [];

  async function app(feature: typeof ListeningModule, channel?: NoticeChannel): Promise<INestApplicationContext> {
    @Module({
      imports: [
        ProcessNoticesModule.forRoot({ service: 'gateway-api', transport, ...(channel ? { channel } : {}) }),
        feature,
      ],
    })
    class Root {}
    const created = await NestFactory.createApplicationContext(Root, { logger: false });
    await created.init();
    apps.push(created);
    return created;
  }

  afterAll(async () => {
    for (const created of apps) await created.close();
  });

  it('listens for the notices this process handles, and runs its handlers when another process announces one', async () => {
    const gateway = await app(ListeningModule);
    const gatewayTwo = await app(ListeningModule);
    const ledger = await app(SilentModule);
    expect(gateway.get(ProcessNoticesBridge).listening).toEqual(['ProviderDirectoryChanged']);
    expect(ledger.get(ProcessNoticesBridge).listening).toEqual([]);

    await ledger.get<symbol, ProcessNotices>(PROCESS_NOTICES).announce(new ProviderDirectoryChanged());
    const deadline = Date.now() + 5_000;
    const counts = () => [gateway, gatewayTwo].map((a) => a.get(CountingHandler).heard);
    while (counts().some((n) => n < 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(counts()).toEqual([1, 1]);
    // Real channels on NATS: connected once started (readiness).
    expect([gateway, gatewayTwo, ledger].map((a) => a.get(ProcessNoticesBridge).isConnected())).toEqual([
      true,
      true,
      true,
    ]);

    // Not a broadcast notice: refused (logged), nothing sent, never a rejection.
    await ledger.get<symbol, ProcessNotices>(PROCESS_NOTICES).announce(new (class Stray {})());
    await new Promise((r) => setTimeout(r, 200));
    expect(counts()).toEqual([1, 1]);
  }, 30_000);

  it("reports its channel's connection as it changes (readiness)", async () => {
    const channel = new UnconfirmingChannel();
    const gateway = await app(ListeningModule, channel);
    const bridge = gateway.get(ProcessNoticesBridge);
    expect(bridge.isConnected()).toBe(true);
    channel.connected = false;
    expect(bridge.isConnected()).toBe(false);
    channel.connected = true;
    expect(bridge.isConnected()).toBe(true);
  });

  it('treats a gap in the channel as every notice it listens for', async () => {
    const channel = new UnconfirmingChannel();
    const gateway = await app(ListeningModule, channel);
    channel.handlers!.onGap();
    expect(gateway.get(CountingHandler).heard).toBe(1);
    channel.handlers!.onNotice('NotACatalogueName');
    expect(gateway.get(CountingHandler).heard).toBe(1);
  });

  it('holds an announcement no longer than ANNOUNCE_TIMEOUT_MS when the transport does not confirm it', async () => {
    const channel = new UnconfirmingChannel();
    const ledger = await app(SilentModule, channel);
    const startedMs = Date.now();
    await ledger.get<symbol, ProcessNotices>(PROCESS_NOTICES).announce(new ProviderDirectoryChanged());
    const tookMs = Date.now() - startedMs;
    expect(channel.published).toEqual(['ProviderDirectoryChanged']);
    expect(tookMs).toBeGreaterThanOrEqual(ANNOUNCE_TIMEOUT_MS - 5);
    expect(tookMs).toBeLessThan(ANNOUNCE_TIMEOUT_MS + 1_000);
  });
});
