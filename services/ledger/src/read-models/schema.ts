import { RECONCILIATION_SCHEMA } from '../reconciliation/read-model/schema.js';

/**
 * The deposits the expiry sweeper looks at (commands/deposit-expiry.sweeper.ts), and the predicate of
 * the partial index that serves it, so that the sweep reads the due ones in expiry order instead of
 * every pending deposit: the queue index orders by creation, and at 200,000 pending deposits the
 * sweep took 24 ms on the server (with two parallel workers) and 35-48 ms on PGlite, where it holds
 * the one connection, every 15 s; with the index 0.2-1.4 ms.
 */
export const EXPIRING_DEPOSITS_SQL = `type = 'deposit' and state in ('awaiting_payment', 'payment_reported')`;

/**
 * Read models projected from the event stream. Everything here can be dropped and rebuilt by
 * replaying the store (the replay tool does exactly that into a scratch schema).
 * Amounts are bigint kuruş.
 */
export const READ_MODEL_SCHEMA = `
create sequence if not exists txn_number_seq;
create sequence if not exists provider_number_seq;
create table if not exists rm_transactions (
  transaction_id uuid primary key,
  number bigint not null unique,
  type text not null,
  state text not null,
  merchant_id text not null,
  provider_id text not null,
  infrastructure_id text not null,
  form text not null,
  external_id text not null,
  amount_kurus bigint not null,
  original_amount_kurus bigint not null,
  fee_kurus bigint not null default 0,
  customer jsonb not null,
  bank_account_id text,
  iban text,
  payment_token text unique,
  expires_at timestamptz,
  assignee text,
  reason text,
  version integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
-- No unique (provider_id, external_id): transaction_id is the name-based UUID of the two
-- (libs/contracts ids/name-uuid.ts), so the primary key already holds one row per pair, and no query reads
-- by the pair. The constraint would cost every new transaction a second unique check and index entry
-- (about 5% of a deposit group's server CPU and 185 bytes of WAL, measured).
-- No semicolon in these comments: the replay's scratch schema splits this script at each one.
-- A store made by an earlier build loses it here.
alter table rm_transactions drop constraint if exists rm_transactions_provider_id_external_id_key;
create index if not exists rm_transactions_queue on rm_transactions (type, state, created_at);
-- The panel lists newest first with a (created_at, transaction_id) cursor.
create index if not exists rm_transactions_newest on rm_transactions (created_at desc, transaction_id desc);
create index if not exists rm_transactions_bank_day on rm_transactions (bank_account_id, created_at);
create index if not exists rm_transactions_due on rm_transactions (expires_at) where ${EXPIRING_DEPOSITS_SQL};
create table if not exists rm_transfers (
  transfer_id text primary key,
  transaction_id uuid not null,
  merchant_id text not null,
  debit_account text not null,
  credit_account text not null,
  amount_kurus bigint not null check (amount_kurus >= 0),
  state text not null check (state in ('pending', 'posted', 'voided')),
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index if not exists rm_transfers_txn on rm_transfers (transaction_id);
create table if not exists rm_balances (
  account_id text primary key,
  debits_pending_kurus bigint not null default 0,
  debits_posted_kurus bigint not null default 0,
  credits_pending_kurus bigint not null default 0,
  credits_posted_kurus bigint not null default 0
);
create table if not exists rm_bank_account_daily (
  bank_account_id text not null,
  day date not null,
  issued_kurus bigint not null default 0,
  primary key (bank_account_id, day)
);
create table if not exists rm_infrastructures (
  infrastructure_id text primary key, slug text not null unique, record jsonb not null, updated_at timestamptz not null
);
create table if not exists rm_merchants (
  merchant_id text primary key, name text not null, record jsonb not null, updated_at timestamptz not null
);
create table if not exists rm_providers (
  provider_id text primary key, api_key text not null unique, merchant_id text not null, record jsonb not null,
  updated_at timestamptz not null
);
create table if not exists rm_bank_accounts (
  bank_account_id text primary key, iban text not null unique, active boolean not null, record jsonb not null,
  updated_at timestamptz not null
);
create table if not exists rm_roles (
  role_id text primary key, name text not null unique, record jsonb not null, updated_at timestamptz not null
);
create table if not exists rm_operators (
  operator_id text primary key, username text not null unique, record jsonb not null, updated_at timestamptz not null
);
create table if not exists rm_settings (
  name text primary key, record jsonb not null, updated_by text, updated_at timestamptz not null
);
-- Amount changes waiting for a second operator (four eyes): an index of the transaction streams,
-- which hold the truth (the list reads each stream). One row per request, replaced by its decision.
create table if not exists rm_amount_change_requests (
  request_id uuid primary key, transaction_id uuid not null, state text not null, record jsonb not null,
  updated_at timestamptz not null
);
create index if not exists rm_amount_change_requests_pending on rm_amount_change_requests (updated_at)
  where state = 'pending';
${RECONCILIATION_SCHEMA}`;
