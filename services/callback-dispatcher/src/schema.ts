/**
 * The dispatcher's own tables (the callback log). A delivery is one callback of one final
 * transaction: created once by the consumer (unique transaction and event), its body and target
 * frozen at that moment. Due work lives here, not in timers: `pending` rows with `due_at` are
 * claimed by any worker with a lease (`lease_owner`, `lease_until`), so a restart or a second
 * instance picks up exactly where the last one stopped.
 */
export const CALLBACK_SCHEMA = `
create table if not exists cb_deliveries (
  delivery_id uuid primary key,
  event_id uuid not null unique,
  transaction_id uuid not null unique,
  transaction_number bigint not null,
  external_id text not null,
  type text not null check (type in ('deposit', 'withdrawal')),
  outcome text not null check (outcome in ('approved', 'rejected')),
  provider_id text not null,
  infrastructure_id text not null,
  format text not null,
  target_url text not null,
  body text not null,
  state text not null check (state in ('pending', 'delivered', 'failed')),
  attempt_count integer not null default 0,
  round_attempts integer not null default 0,
  due_at timestamptz,
  lease_owner text,
  lease_until timestamptz,
  next_trigger text not null default 'automatic',
  next_requested_by text,
  resend_requested boolean not null default false,
  resend_requested_by text,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists cb_deliveries_due on cb_deliveries (due_at) where state = 'pending';
create index if not exists cb_deliveries_newest on cb_deliveries (created_at desc, delivery_id desc);
create index if not exists cb_deliveries_external on cb_deliveries (external_id);
create table if not exists cb_attempts (
  delivery_id uuid not null references cb_deliveries (delivery_id),
  attempt_no integer not null,
  trigger text not null,
  requested_by text,
  worker text not null,
  started_at timestamptz not null,
  latency_ms integer,
  status_code integer,
  outcome text not null,
  error text,
  response_excerpt text,
  retry_after_ms integer,
  next_due_at timestamptz,
  primary key (delivery_id, attempt_no)
);
`;

export const CALLBACK_CONSUMER = 'callback-dispatcher';
