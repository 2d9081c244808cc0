/**
 * The incoming-webhook log, owned by webhook-ingest and created when its module starts. Not a read
 * model: it is the only record of what upstreams sent (the ledger's events record what changed), so
 * it is never rebuilt. A row is written before a webhook is acted on (outcome `received`) and
 * completed with the outcome afterwards, so a crash in between still leaves the raw webhook.
 */
export const WEBHOOK_LOG_SCHEMA = `
create table if not exists wh_log (
  id bigserial primary key,
  received_at timestamptz not null default now(),
  slug text not null,
  kind text not null check (kind in ('deposit', 'withdrawal')),
  path text not null,
  source_ip text not null,
  headers jsonb not null,
  body jsonb,
  raw_text text,
  body_truncated boolean not null default false,
  infrastructure_id text,
  infrastructure_slug text,
  status_value text,
  outcome text not null check (outcome in ('received', 'applied', 'ignored_repeat', 'refused', 'failed')),
  reason text,
  error_code text,
  http_status integer,
  transaction_id uuid,
  completed_at timestamptz
);
create index if not exists wh_log_slug on wh_log (slug, id desc);
create index if not exists wh_log_infrastructure_slug on wh_log (infrastructure_slug, id desc);
create index if not exists wh_log_outcome on wh_log (outcome, id desc);
create index if not exists wh_log_transaction on wh_log (transaction_id, id desc);
`;
