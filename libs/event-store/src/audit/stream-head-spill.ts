import pg from 'pg';
import { classifyHead, type HeadFindings, type StreamSeen } from '../store/event-chain.js';
import { postgresConnectionOf, postgresPoolConfig, type PostgresConnection } from '../sql/postgres-database.js';
import type { SqlDatabase, SqlExecutor } from '../sql/sql-database.js';
import type { OpenedSpill } from './bounded-chain-check.js';

/**
 * Where a bounded chain check (bounded-chain-check.ts) keeps the stream heads it cannot hold: a
 * temporary table of the session it is given, so it needs no schema of its own, leaves nothing
 * behind when the session ends (a replay killed midway included), and is seen by no other session.
 * The session must be one connection for the whole pass: a PGlite database, or a client of its own
 * on a server (a pool's connections each have their own temporary tables).
 */
const NAME = 'tg_audit_stream_heads';
const TABLE = `pg_temp.${NAME}`;

/** Rows per statement when heads are written out: one array parameter each, a few MB at most. */
export const SPILL_WRITE_ROWS = 10_000;

export class StreamHeadSpill {
  private created = false;

  constructor(private readonly session: SqlExecutor) {}

  /** Stores (or replaces) each stream's head, SPILL_WRITE_ROWS to a statement. */
  async write(entries: Iterable<readonly [string, StreamSeen]>): Promise<void> {
    let ids: string[] = [];
    let versions: number[] = [];
    let hashes: string[] = [];
    const flush = async () => {
      if (ids.length === 0) return;
      if (!this.created) {
        // The default `on commit preserve rows`: the table lives as long as the session.
        await this.session.query(
          `create temp table if not exists ${NAME} (stream_id text primary key, version int not null, hash_hex text not null)`,
        );
        this.created = true;
      }
      await this.session.query(
        `insert into ${TABLE} (stream_id, version, hash_hex)
         select * from unnest($1::text[], $2::int[], $3::text[])
         on conflict (stream_id) do update set version = excluded.version, hash_hex = excluded.hash_hex`,
        [ids, versions, hashes],
      );
      ids = [];
      versions = [];
      hashes = [];
    };
    for (const [streamId, seen] of entries) {
      ids.push(streamId);
      versions.push(seen.version);
      hashes.push(seen.hashHex);
      if (ids.length === SPILL_WRITE_ROWS) await flush();
    }
    await flush();
  }

  /** The stored heads of those of `streamIds` written before; a stream never written is not in the answer. */
  async lookup(streamIds: readonly string[]): Promise<Array<[string, StreamSeen]>> {
    if (!this.created || streamIds.length === 0) return [];
    const { rows } = await this.session.query<{ stream_id: string; version: number; hash_hex: string }>(
      `select stream_id, version, hash_hex from ${TABLE} where stream_id = any($1::text[])`,
      [streamIds],
    );
    return rows.map((r) => [r.stream_id, { version: r.version, hashHex: r.hash_hex }]);
  }

  /**
   * ChainVerifier.checkHeads over every stream written here: the join finds the recorded heads
   * that differ from what was seen (or were never seen), and classifyHead, the one definition, says
   * what each is. Only the differing rows come back.
   */
  async checkHeads(): Promise<HeadFindings> {
    if (!this.created) throw new Error('stream head spill: nothing was written');
    const findings: HeadFindings = { broken: [], unseen: [] };
    const { rows } = await this.session.query<{
      stream_id: string;
      version: number;
      head: string | null;
      seen_version: number | null;
      seen_hash: string | null;
    }>(
      `select s.stream_id, s.version, encode(s.head_hash, 'hex') as head, h.version as seen_version, h.hash_hex as seen_hash
       from es_streams s left join ${TABLE} h on h.stream_id = s.stream_id
       where h.stream_id is null or s.version <> h.version or encode(s.head_hash, 'hex') is distinct from h.hash_hex
       order by s.stream_id`,
    );
    for (const r of rows) {
      const seen = r.seen_version === null ? undefined : { version: r.seen_version, hashHex: r.seen_hash! };
      classifyHead({ streamId: r.stream_id, version: r.version, headHash: r.head }, seen, findings);
    }
    return findings;
  }

  /** Drops the table (the session itself is its owner's to close). */
  async close(): Promise<void> {
    if (this.created) await this.session.query(`drop table if exists ${TABLE}`);
    this.created = false;
  }
}

/** A spill on a connection of its own to a PostgreSQL server (temporary tables are per connection). */
export async function openServerSpill(connection: PostgresConnection): Promise<OpenedSpill> {
  const client = new pg.Client(postgresPoolConfig(connection, 1));
  // An error of the idle connection (a server restart) must not end the process; the next query reports it.
  client.on('error', () => undefined);
  await client.connect();
  const spill = new StreamHeadSpill({
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const result = await client.query(sql, params as unknown[] | undefined);
      return { rows: result.rows as Row[] };
    },
  });
  // Ending the connection drops its temporary table with it.
  return { spill, close: () => client.end() };
}

/** A spill for a pass over `db`: a connection of its own on a server, PGlite's one session otherwise. */
export function spillOpenerFor(db: SqlDatabase): () => Promise<OpenedSpill> {
  const connection = postgresConnectionOf(db);
  if (connection) return () => openServerSpill(connection);
  return () => {
    const spill = new StreamHeadSpill(db);
    return Promise.resolve({ spill, close: () => spill.close() });
  };
}
