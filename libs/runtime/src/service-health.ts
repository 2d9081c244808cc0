import { Controller, Get, Inject, Injectable, Res } from '@nestjs/common';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { ProcessNoticesBridge, RemoteBusBridge } from '@transfergate/messaging';
import type { FastifyReply } from 'fastify';

/** A readiness check must answer within this, or the process counts as not ready. */
const CHECK_TIMEOUT_MS = 2_000;

/** Set by the runtime: consumers and the listener have started, and the process is not draining. */
@Injectable()
export class ServiceLifecycle {
  started = false;
  draining = false;
}

type Check = { ok: boolean; detail?: string };

/**
 * Liveness (`/livez`: the event loop answers) and readiness (`/readyz`: database reachable, transport
 * and notice channel connected, consumers started, not shutting down) of one service process, for
 * Kubernetes probes. The notice channel is a connection of its own (process-notices.ts): while it is
 * down, this process may answer from caches that another process has changed, up to their TTL.
 */
@Controller()
export class ServiceHealthController {
  constructor(
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    private readonly bus: RemoteBusBridge,
    private readonly notices: ProcessNoticesBridge,
    private readonly lifecycle: ServiceLifecycle,
  ) {}

  @Get('livez')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ status: string; checks: Record<string, Check> }> {
    const checks: Record<string, Check> = {
      database: await this.database(),
      transport: { ok: this.bus.isConnected() },
      notices: { ok: this.notices.isConnected() },
      consumers: { ok: this.lifecycle.started && !this.lifecycle.draining },
    };
    const ok = Object.values(checks).every((c) => c.ok);
    if (!ok) void reply.code(503);
    return { status: ok ? 'ready' : 'not_ready', checks };
  }

  private async database(): Promise<Check> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.db.query('select 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
        }),
      ]);
      return { ok: true };
    } catch (error) {
      // The driver's message only (never the URL, which may hold a password).
      return { ok: false, detail: (error as Error).message.slice(0, 200) };
    } finally {
      clearTimeout(timer);
    }
  }
}
