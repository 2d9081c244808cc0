import { connect, type NatsConnection } from '@nats-io/transport-node';
import { noticeSubject, type NoticeChannel, type NoticeChannelHandlers } from './notice-channel.js';

/**
 * Notices over NATS: plain subscriptions (no queue group, unlike commands), so every process that
 * listens gets every notice. A connection of its own, which reconnects forever: a notice missed while
 * it was down is made up for by `onGap` on the disconnect and on the reconnect.
 */
export class NatsNoticeChannel implements NoticeChannel {
  private connection?: NatsConnection;
  private statusLoop?: Promise<void>;

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
    this.statusLoop = (async () => {
      for await (const status of connection.status()) {
        if (status.type === 'disconnect' || status.type === 'reconnect') handlers.onGap();
      }
    })();
  }

  async publish(name: string): Promise<void> {
    const connection = this.connection;
    if (!connection) throw new Error('notice channel not started');
    connection.publish(noticeSubject(this.prefix, name));
    await connection.flush();
  }

  async close(): Promise<void> {
    await this.connection?.drain().catch(() => undefined);
    await this.statusLoop;
  }
}
