import type { SqlDatabase } from '@transfergate/event-store';
import type { ProcessNoticesBridge, RemoteBusBridge } from '@transfergate/messaging';
import type { FastifyReply } from 'fastify';
import { ServiceHealthController, ServiceLifecycle } from './service-health.js';

/**
 * `/readyz`'s answer from its checks. The collaborators are stand-ins whose state each case sets;
 * test/distributed/distributed.spec.ts reads the same route from real processes on NATS and Kafka,
 * and nats-notice-channel.reconnect.broker.spec.ts a real channel's state across a server restart.
 */
describe('service readiness', () => {
  const state = { database: true, transport: true, notices: true };
  const db = {
    query: async () => {
      if (!state.database) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      return { rows: [{ '?column?': 1 }] };
    },
  } as unknown as SqlDatabase;
  const bus = { isConnected: () => state.transport } as unknown as RemoteBusBridge;
  const notices = { isConnected: () => state.notices } as unknown as ProcessNoticesBridge;
  const lifecycle = new ServiceLifecycle();
  const controller = new ServiceHealthController(db, bus, notices, lifecycle);

  async function readiness(): Promise<{ status: number; body: Awaited<ReturnType<typeof controller.ready>> }> {
    let status = 200;
    const reply = {
      code(value: number) {
        status = value;
        return reply;
      },
    } as unknown as FastifyReply;
    const body = await controller.ready(reply);
    return { status, body };
  }

  beforeEach(() => {
    Object.assign(state, { database: true, transport: true, notices: true });
    lifecycle.started = true;
    lifecycle.draining = false;
  });

  it('is ready when every check passes', async () => {
    expect(await readiness()).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: { database: { ok: true }, transport: { ok: true }, notices: { ok: true }, consumers: { ok: true } },
      },
    });
  });

  it('is not ready while the notice channel is down, and names that check alone', async () => {
    state.notices = false;
    const { status, body } = await readiness();
    expect(status).toBe(503);
    expect(body.status).toBe('not_ready');
    expect(Object.entries(body.checks).filter(([, check]) => !check.ok)).toEqual([['notices', { ok: false }]]);
  });

  it('is not ready without the database, the transport, or while starting or draining', async () => {
    state.database = false;
    expect((await readiness()).body.checks.database).toEqual({
      ok: false,
      detail: 'connect ECONNREFUSED 127.0.0.1:5432',
    });
    state.database = true;
    state.transport = false;
    expect((await readiness()).status).toBe(503);
    state.transport = true;
    lifecycle.draining = true;
    expect((await readiness()).status).toBe(503);
    lifecycle.draining = false;
    lifecycle.started = false;
    expect((await readiness()).status).toBe(503);
    lifecycle.started = true;
    expect((await readiness()).status).toBe(200);
  });
});
