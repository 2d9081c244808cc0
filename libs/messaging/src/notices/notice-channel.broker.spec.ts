import { randomUUID } from 'node:crypto';
import { kafkaBrokersFor } from '../../../../test/support/kafka.js';
import { KafkaNoticeChannel } from './kafka-notice-channel.js';
import { NatsNoticeChannel } from './nats-notice-channel.js';
import type { NoticeChannel } from './notice-channel.js';

/**
 * Notice channels on the real transports (NATS on 127.0.0.1:4222, as every test machine has; Kafka
 * with KAFKA_BROKERS, else reported as skipped): every listener hears every notice (a broadcast, not
 * a queue group), only the names it listens for, only within its deployment's prefix.
 */
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const brokers = kafkaBrokersFor('notice-channel.broker.spec over Kafka');
const NAMES = ['DirectoryChanged', 'OtherChanged'];
const HEARD_WITHIN_MS = 10_000;

interface Heard {
  notices: string[];
  gaps: number;
}

const transports: Array<{ name: string; available: boolean; create: (prefix: string, id: string) => NoticeChannel }> = [
  { name: 'NATS', available: true, create: (prefix, id) => new NatsNoticeChannel(NATS_URL, prefix, id) },
  {
    name: 'Kafka',
    available: brokers !== undefined,
    create: (prefix, id) =>
      new KafkaNoticeChannel({
        brokers: (brokers ?? '').split(','),
        prefix,
        allNames: NAMES,
        clientId: `${prefix}.${id}`,
        sessionTimeoutMs: 6_000,
      }),
  },
];

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + HEARD_WITHIN_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${HEARD_WITHIN_MS} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

for (const transport of transports)
  (transport.available ? describe : describe.skip)(`notice channel over ${transport.name}`, () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const channels: NoticeChannel[] = [];
    const start = async (p: string, id: string, names: string[]): Promise<Heard> => {
      const heard: Heard = { notices: [], gaps: 0 };
      const channel = transport.create(p, id);
      channels.push(channel);
      await channel.start(names, { onNotice: (name) => heard.notices.push(name), onGap: () => heard.gaps++ });
      return heard;
    };
    afterAll(async () => {
      for (const channel of channels) await channel.close();
    });

    it('delivers each notice to every listener, only the names it listens for, only under its prefix', async () => {
      const first = await start(prefix, 'a', ['DirectoryChanged']);
      const second = await start(prefix, 'b', ['DirectoryChanged']);
      const other = await start(prefix, 'c', ['OtherChanged']);
      const elsewhere = await start(`${prefix}x`, 'd', ['DirectoryChanged']);
      const announcer = transport.create(prefix, 'announcer');
      channels.push(announcer);
      await announcer.start([], { onNotice: () => undefined, onGap: () => undefined });

      await announcer.publish('DirectoryChanged');
      await announcer.publish('DirectoryChanged');
      await until(() => first.notices.length === 2 && second.notices.length === 2, 'both listeners hear both notices');
      // Time for a wrongly routed notice to show up.
      await new Promise((r) => setTimeout(r, 300));
      expect(first.notices).toEqual(['DirectoryChanged', 'DirectoryChanged']);
      expect(second.notices).toEqual(['DirectoryChanged', 'DirectoryChanged']);
      expect(other.notices).toEqual([]);
      expect(elsewhere.notices).toEqual([]);
    }, 120_000);

    it('says it is connected once started, listening or only announcing, and not once closed', async () => {
      const listener = transport.create(prefix, 'ready-listener');
      const announcer = transport.create(prefix, 'ready-announcer');
      expect([listener.isConnected(), announcer.isConnected()]).toEqual([false, false]);
      await listener.start(['DirectoryChanged'], { onNotice: () => undefined, onGap: () => undefined });
      await announcer.start([], { onNotice: () => undefined, onGap: () => undefined });
      expect([listener.isConnected(), announcer.isConnected()]).toEqual([true, true]);
      await listener.close();
      await announcer.close();
      expect([listener.isConnected(), announcer.isConnected()]).toEqual([false, false]);
    }, 120_000);
  });
