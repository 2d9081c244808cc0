import { GENESIS_HASH_SQL, storedEventSql } from './event-chain.js';

/**
 * Event store tables. `xid` is the writing transaction's id (xid8, never wraps); readers only
 * take rows whose xid is below the oldest transaction still running, which makes the
 * (xid, seq) order gap-free: a bigserial alone is not, because sequence values are handed out
 * before commit and commits land out of order.
 */
export const EVENT_STORE_SCHEMA = `
create table if not exists es_streams (
  stream_id text primary key,
  version integer not null check (version >= 0)
);
create table if not exists es_events (
  seq bigserial primary key,
  xid xid8 not null default pg_current_xact_id(),
  event_id uuid not null unique,
  stream_id text not null,
  stream_version integer not null,
  type text not null,
  schema_version integer not null,
  data jsonb not null,
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  hash bytea,
  unique (stream_id, stream_version)
);
-- Hash chain (event-chain.ts). Databases created before it get the columns here and are backfilled
-- by CHAIN_BACKFILL; head_hash is the stream's last event's hash, prev_head_hash the head before the
-- latest append (the append statement reads it back from its own claim).
alter table es_events add column if not exists hash bytea;
alter table es_streams add column if not exists head_hash bytea;
alter table es_streams add column if not exists prev_head_hash bytea;
create index if not exists es_events_global_order on es_events (xid, seq);
-- No statistics on the payloads: nothing filters on a whole data or metadata value, and gathering
-- them (detoasting and comparing jsonb) was most of an ANALYZE of es_events, which the embedded
-- store runs on its one connection (pglite-autovacuum.ts): 635-822 ms at 100,000 events, 227-243
-- without them. Changed only when needed (SET STATISTICS rewrites the catalog row and invalidates
-- every cached plan on the table); attstattarget is null for the default since PostgreSQL 17.
do $$
begin
  if exists (select 1 from pg_attribute where attrelid = 'es_events'::regclass
             and attname in ('data', 'metadata') and attstattarget is distinct from 0) then
    alter table es_events alter column data set statistics 0, alter column metadata set statistics 0;
  end if;
end $$;
create table if not exists es_checkpoints (
  consumer text primary key,
  commit_xid xid8 not null default '0'::xid8,
  seq bigint not null default 0,
  lease_owner text,
  lease_until timestamptz,
  updated_at timestamptz not null default now()
);
-- The application_name of the holder's liveness session (subscriptions/lease-liveness.ts).
alter table es_checkpoints add column if not exists lease_liveness text;
`;

/** True when some stream has events but no chain head: events stored before the hash chain existed. */
export const CHAIN_BACKFILL_NEEDED = `select exists (select 1 from es_streams where head_hash is null and version > 0) as needed`;

/**
 * Hashes the events of unchained streams in version order, as if they had been appended with the
 * chain, then sets each stream's head. Runs once at start-up (PostgresEventStore.create), before
 * this process appends anything; the table lock keeps concurrent writers out until it commits.
 */
export const CHAIN_BACKFILL = `
do $$
declare
  r record;
  current_stream text := null;
  previous bytea;
begin
  -- One table lock, not one lock per stream (a large store would exhaust the lock table): every
  -- append writes es_streams, so writers wait until the backfill has committed.
  lock table es_streams in exclusive mode;
  for r in
    select e.seq, e.stream_id, ${storedEventSql('e')} as canonical
    from es_events e join es_streams s on s.stream_id = e.stream_id
    where s.head_hash is null and s.version > 0
    order by e.stream_id, e.stream_version
  loop
    if current_stream is distinct from r.stream_id then
      current_stream := r.stream_id;
      previous := ${GENESIS_HASH_SQL};
    end if;
    previous := sha256(previous || r.canonical);
    update es_events set hash = previous where seq = r.seq;
  end loop;
  update es_streams s set head_hash = (select e.hash from es_events e where e.stream_id = s.stream_id
                                       order by e.stream_version desc limit 1)
  where s.head_hash is null and s.version > 0;
end $$;
`;
