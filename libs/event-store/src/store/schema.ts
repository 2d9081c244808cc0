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
  unique (stream_id, stream_version)
);
create index if not exists es_events_global_order on es_events (xid, seq);
create table if not exists es_checkpoints (
  consumer text primary key,
  commit_xid xid8 not null default '0'::xid8,
  seq bigint not null default 0,
  lease_owner text,
  lease_until timestamptz,
  updated_at timestamptz not null default now()
);
`;
