import { spawn, type ChildProcess } from 'node:child_process';
import { connect as connectTcp } from 'node:net';
import { freePort } from '../../../../test/support/free-port.js';
import { NatsNoticeChannel } from './nats-notice-channel.js';

/**
 * A notice channel whose NATS server goes away and comes back (a server of this test's own, on a
 * port of its own, so the shared one is never touched): the listener reports the gap on both edges,
 * so its owner forgets what it cached, and hears notices again after the reconnect.
 */
const NATS_SERVER = process.env.NATS_SERVER_BIN ?? 'nats-server';
const WITHIN_MS = 20_000;

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + WITHIN_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${WITHIN_MS} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connectTcp(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

describe('NATS notice channel across a server restart', () => {
  let port: number;
  let server: ChildProcess | undefined;
  const startServer = async () => {
    server = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    await until(() => listening(port), 'the test NATS server listens');
  };
  const stopServer = async () => {
    const stopping = server;
    if (!stopping || stopping.exitCode !== null) return;
    const exited = new Promise((r) => stopping.once('exit', r));
    stopping.kill('SIGKILL');
    await exited;
  };

  beforeAll(async () => {
    port = await freePort();
    await startServer();
  });
  afterAll(async () => {
    await stopServer();
  });

  it('reports a gap when the connection drops and when it comes back, then hears notices again', async () => {
    const url = `nats://127.0.0.1:${port}`;
    const heard = { notices: 0, gaps: 0 };
    const listener = new NatsNoticeChannel(url, 'restart', 'listener');
    const sender = new NatsNoticeChannel(url, 'restart', 'sender');
    await listener.start(['X'], { onNotice: () => heard.notices++, onGap: () => heard.gaps++ });
    await sender.start([], { onNotice: () => undefined, onGap: () => undefined });
    try {
      expect([listener.isConnected(), sender.isConnected()]).toEqual([true, true]);
      await sender.publish('X');
      await until(() => heard.notices === 1, 'the first notice');
      expect(heard.gaps).toBe(0);

      await stopServer();
      await until(() => heard.gaps >= 1, 'a gap on the disconnect');
      // Readiness: both channels say they are down while the server is.
      await until(() => !listener.isConnected() && !sender.isConnected(), 'both channels report the outage');
      await startServer();
      await until(() => heard.gaps >= 2, 'a gap on the reconnect');
      await until(() => listener.isConnected() && sender.isConnected(), 'both channels report the reconnect');

      // After the reconnect the subscription is back on the new server.
      await until(async () => {
        await sender.publish('X').catch(() => undefined);
        return heard.notices >= 2;
      }, 'a notice after the reconnect');
    } finally {
      await listener.close();
      await sender.close();
    }
    expect([listener.isConnected(), sender.isConnected()]).toEqual([false, false]);
  }, 60_000);
});
