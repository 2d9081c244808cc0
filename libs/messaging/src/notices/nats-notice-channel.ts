import { connect, type NatsConnection } from '@nats-io/transport-node';
import { noticeSubject, type NoticeChannel, type NoticeChannelHandlers } from './notice-channel.js';

const CLOSE_DRAIN_TIMEOUT_MS = 2_000;

/**
 * Notices over NATS: plain subscriptions (no queue group, unlike commands), so every process that
 * listens gets every notice. A connection of its own, which reconnects forever: a notice missed while
 * it was down is made up for by `onGap` on the disconnect and on the reconnect.
 */
export class NatsNoticeChannel implements NoticeChannel {
  private connection?: NatsConnection;
  private statusLoop?: Promise<void>;
  /** Follows the connection's status: down from a disconnect until its reconnect. */
  private connected = false;

  constructor(
    private readonly natsUrl: string,
    private readonly prefix: string,
    private readonly name: string,
  ) {}

  async start(names: readonly string[], handlers: NoticeChannelHandlers): Promise<void> {
    const connection = await connect({ servers: [this.natsUrl], name: this.name, maxReconnectAttempts: -1 });
    this.connection = connection;
    for (const name of names) {
      connection.subscribe(noticeSubject(this.prefix, name), {
        callback: (error) => {
          // A subscription error (say, a permissions change on the server) may have cost notices.
          if (error) handlers.onGap();
          else handlers.onNotice(name);
        },
      });
    }
    // The subscriptions must be registered on the server before this process counts as listening.
    await connection.flush();
    this.connected = true;
    this.statusLoop = (async () => {
      for await (const status of connection.status()) {
        if (status.type === 'disconnect' || status.type === 'reconnect') {
          this.connected = status.type === 'reconnect';
          handlers.onGap();
        }
      }
    })();
  }

  async publish(name: string): Promise<void> {
    const connection = this.connection;
    if (!connection) throw new Error('notice channel not started');
    connection.publish(noticeSubject(this.prefix, name));
    await connection.flush();
  }

  isConnected(): boolean {
    return this.connected && this.connection !== undefined && !this.connection.isClosed();
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connected = false;
    if (!connection) return;
    // A drain waits for the server; with the server gone it would wait as long as the reconnects go on.
    let timer: NodeJS.Timeout | undefined;
    const drained = connection.drain().catch(() => undefined);
    await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_DRAIN_TIMEOUT_MS)))]);
    clearTimeout(timer);
    if (!connection.isClosed()) await connection.close().catch(() => undefined);
    await this.statusLoop;
  }
}
