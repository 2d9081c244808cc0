import type { SqlDatabase } from '../sql/sql-database.js';
import { openLeaseLiveness, type LeaseLiveness } from './lease-liveness.js';

/**
 * Which replicas (by their transport client id) are alive, answered by the database: each replica
 * records its client id beside the name of a session it keeps open for as long as it lives
 * (lease-liveness.ts), and a replica whose session is gone from `pg_stat_activity` is dead. Kafka
 * keeps a dead member's partitions until its session times out (30 s); a live replica that asks this
 * removes the dead one from the group at once (libs/messaging, kafka/dead-member-sweep.ts).
 *
 * A client id never recorded here (a process of an older release, a tool) is never called dead.
 */
export interface ReplicaLivenessRegistry {
  /** Records `clientId` as this process's, alive while the process is. */
  register(clientId: string): Promise<void>;
  /** Of `clientIds`, those recorded by a process whose session is gone. */
  deadAmong(clientIds: readonly string[]): Promise<Set<string>>;
  /** Whether this process's own session is connected (while it is not, nothing is called dead). */
  isLive(): boolean;
  close(): Promise<void>;
}

/** Rows of replicas gone for longer than this are dropped at the next registration (pod names change per rollout). */
const FORGET_DEAD_AFTER_HOURS = 24;
/** Limit (TIGER_STYLE): client ids asked about in one call (a group's members). */
export const MAX_CLIENT_IDS_ASKED = 256;

const SCHEMA = `create table if not exists es_replica_liveness (
  client_id text primary key,
  session_name text not null,
  registered_at timestamptz not null default now()
)`;

/** The registry on a PostgreSQL server; undefined on PGlite (one process: no other replica). */
export async function openReplicaLiveness(
  db: SqlDatabase,
  onError: (error: unknown) => void = () => undefined,
): Promise<ReplicaLivenessRegistry | undefined> {
  if (db.kind !== 'postgres') return undefined;
  const session: LeaseLiveness = await openLeaseLiveness(db, onError);
  if (session.name === undefined) return undefined;
  const sessionName = session.name;
  await db.exec(SCHEMA);
  return {
    async register(clientId) {
      await db.query(
        `with forgotten as (
           delete from es_replica_liveness r
           where registered_at < now() - ($3::int * interval '1 hour')
             and not exists (select 1 from pg_stat_activity a where a.application_name = r.session_name)
         )
         insert into es_replica_liveness (client_id, session_name) values ($1, $2)
         on conflict (client_id) do update set session_name = excluded.session_name, registered_at = now()`,
        [clientId, sessionName, FORGET_DEAD_AFTER_HOURS],
      );
    },
    async deadAmong(clientIds) {
      if (!session.isConnected() || clientIds.length === 0) return new Set();
      if (clientIds.length > MAX_CLIENT_IDS_ASKED) {
        throw new RangeError(`at most ${MAX_CLIENT_IDS_ASKED} client ids per question, not ${clientIds.length}`);
      }
      const { rows } = await db.query<{ client_id: string }>(
        `select client_id from es_replica_liveness r
         where client_id = any($1::text[])
           and not exists (select 1 from pg_stat_activity a where a.application_name = r.session_name)`,
        [[...clientIds]],
      );
      return new Set(rows.map((row) => row.client_id));
    },
    isLive: () => session.isConnected(),
    close: () => session.close(),
  };
}
