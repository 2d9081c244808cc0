import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { postgresConnectionOf, postgresPoolConfig } from '../sql/postgres-database.js';
import type { SqlDatabase } from '../sql/sql-database.js';

/**
 * A PostgreSQL session that lives exactly as long as the process holding a consumer's lease, named
 * by its `application_name`. A lease alone is taken over only when it runs out (leaseMs, 15 s by
 * default), so a process killed with SIGKILL and restarted waited that long before its projection
 * moved again, and every command waiting on the projection waited with it. A killed process's
 * sessions end with it (the kernel closes its sockets and the server drops the backends at once), so
 * a lease whose holder's session is gone from `pg_stat_activity` is free now, not when it runs out.
 *
 * Safety never rests on this: every batch is fenced on the lease owner in its own statement, so a
 * holder whose session dropped while it lives (a network cut) loses its next batch, never writes
 * twice. Its liveness session reconnects and it takes the lease back when it is free again.
 *
 * PGlite (one process by construction) has no other holder to outlive: no session, no name.
 */
export interface LeaseLiveness {
  /** The session's `application_name`, recorded with the lease; undefined when there is none. */
  readonly name: string | undefined;
  /** Whether the session is connected now (false between a drop and its reconnection). */
  isConnected(): boolean;
  close(): Promise<void>;
}

/** Pause before reconnecting a dropped liveness session (the lease stays fenced meanwhile). */
const RECONNECT_DELAY_MS = 1_000;

export const NO_LIVENESS: LeaseLiveness = {
  name: undefined,
  isConnected: () => false,
  close: async () => undefined,
};

export async function openLeaseLiveness(
  db: SqlDatabase,
  onError: (error: unknown) => void = () => undefined,
): Promise<LeaseLiveness> {
  const connection = postgresConnectionOf(db);
  if (db.kind !== 'postgres' || !connection) return NO_LIVENESS;
  const { default: pg } = await import('pg');
  // application_name holds at most 63 bytes: 25 here.
  const name = `tg-lease-${randomBytes(8).toString('hex')}`;
  let closed = false;
  let client: Client | undefined;
  let reconnect: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ ...postgresPoolConfig(connection, 1), application_name: name });
    next.on('error', (error) => {
      onError(error);
      if (client === next) client = undefined;
      void next.end().catch(() => undefined);
      if (!closed) reconnect ??= setTimeout(retry, RECONNECT_DELAY_MS);
    });
    await next.connect();
    if (closed) {
      await next.end();
      return;
    }
    client = next;
  };
  const retry = () => {
    reconnect = undefined;
    if (closed) return;
    connect().catch((error: unknown) => {
      onError(error);
      if (!closed) reconnect ??= setTimeout(retry, RECONNECT_DELAY_MS);
    });
  };

  await connect();
  return {
    name,
    isConnected: () => client !== undefined,
    async close() {
      closed = true;
      if (reconnect) clearTimeout(reconnect);
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
