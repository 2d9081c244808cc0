import {
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { CqrsModule, EventBus } from '@nestjs/cqrs';
import { BROADCAST_NOTICES, PROCESS_NOTICES, type ProcessNotices } from '@transfergate/contracts';
import type { ServiceName } from '../kafka/kafka-transport.options.js';
import type { TransportConfig } from '../transport.js';
import { createNoticeChannel } from './create-notice-channel.js';
import type { NoticeChannel } from './notice-channel.js';

// @nestjs/cqrs key (decorators/constants.js, not exported from its index): the events a handler is for.
const EVENTS_HANDLER_METADATA = '__eventsHandler__';
/**
 * Longest a notice holds up its sender (the projection, before it answers the change): a transport
 * that is down must not stall the ledger; the receivers' cache TTL then bounds the staleness.
 */
export const ANNOUNCE_TIMEOUT_MS = 500;

type NoticeClass = (typeof BROADCAST_NOTICES)[number];

export interface ProcessNoticesOptions {
  service: ServiceName;
  transport: TransportConfig;
  /** Tests: a channel of their own instead of the transport's. */
  channel?: NoticeChannel;
}

const PROCESS_NOTICES_OPTIONS = Symbol('PROCESS_NOTICES_OPTIONS');

/**
 * Distributed mode's broadcast of BROADCAST_NOTICES. `announce` sends one to every process; each
 * process listens for the notices it has an event handler for and publishes what it hears on its
 * own EventBus, where the handlers run as they do in the embedded app. When the channel may have
 * missed notices (its connection dropped or came back), every notice listened for is published
 * locally: a spurious cache drop costs a re-read, a missed one a stale answer.
 */
@Injectable()
export class ProcessNoticesBridge implements ProcessNotices, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ProcessNotices');
  private readonly channel: NoticeChannel;
  private readonly started: Promise<void>;
  private markStarted!: () => void;
  private listened: NoticeClass[] = [];

  constructor(
    @Inject(PROCESS_NOTICES_OPTIONS) private readonly options: ProcessNoticesOptions,
    private readonly events: EventBus,
    private readonly discovery: DiscoveryService,
  ) {
    this.channel =
      options.channel ??
      createNoticeChannel(
        options.transport,
        options.service,
        BROADCAST_NOTICES.map((type) => type.name),
      );
    this.started = new Promise((resolve) => (this.markStarted = resolve));
  }

  /** The channel has started and is connected (readiness: `/readyz`'s `notices` check). */
  isConnected(): boolean {
    return this.channel.isConnected();
  }

  /** Names of the notices this process listens for (those it has a handler for). */
  get listening(): string[] {
    return this.listened.map((type) => type.name);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.listened = this.handledNotices();
    const byName = new Map<string, NoticeClass>(this.listened.map((type) => [type.name, type]));
    await this.channel.start([...byName.keys()], {
      onNotice: (name) => {
        const type = byName.get(name);
        if (type) this.events.publish(new type());
      },
      onGap: () => {
        for (const type of this.listened) this.events.publish(new type());
      },
    });
    this.markStarted();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.channel.close();
  }

  async announce(notice: object): Promise<void> {
    const type = BROADCAST_NOTICES.find((candidate) => notice.constructor === candidate);
    if (!type) {
      this.logger.error(`${notice.constructor.name} is not a broadcast notice; not sent`);
      return;
    }
    const name = type.name;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), ANNOUNCE_TIMEOUT_MS)),
    );
    try {
      const sent = this.started.then(() => this.channel.publish(name));
      const outcome = await Promise.race([sent, timedOut]);
      if (outcome === 'timeout') {
        this.logger.warn(`${name}: not confirmed by the transport within ${ANNOUNCE_TIMEOUT_MS} ms; answering anyway`);
      }
    } catch (error) {
      this.logger.warn(`${name} could not be sent: ${String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private handledNotices(): NoticeClass[] {
    const handled = new Set<unknown>();
    for (const wrapper of this.discovery.getProviders()) {
      const type = wrapper.metatype as unknown;
      if (typeof type !== 'function') continue;
      const events = Reflect.getMetadata(EVENTS_HANDLER_METADATA, type) as unknown[] | undefined;
      for (const event of events ?? []) handled.add(event);
    }
    return BROADCAST_NOTICES.filter((type) => handled.has(type));
  }
}

/** Distributed mode only: gives PROCESS_NOTICES to every module of the process. */
@Module({})
export class ProcessNoticesModule {
  static forRoot(options: ProcessNoticesOptions): DynamicModule {
    return {
      module: ProcessNoticesModule,
      global: true,
      imports: [CqrsModule, DiscoveryModule],
      providers: [
        { provide: PROCESS_NOTICES_OPTIONS, useValue: options },
        ProcessNoticesBridge,
        { provide: PROCESS_NOTICES, useExisting: ProcessNoticesBridge },
      ],
      exports: [PROCESS_NOTICES, ProcessNoticesBridge],
    };
  }
}
