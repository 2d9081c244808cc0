/**
 * Reconciliation read models. One row per statement line (written once, by its import), one row per
 * line's status (replaced whole by each event about the line: its assessment, match or dismissal),
 * one per import and one per infrastructure's setting: every row is a last-write-wins upsert, so the
 * replay's memory projection keeps them like configuration records.
 */
export const RECONCILIATION_SCHEMA = `
create table if not exists rm_statement_imports (
  import_id uuid primary key, bank_account_id text not null, record jsonb not null, updated_at timestamptz not null
);
create table if not exists rm_statement_lines (
  line_id uuid primary key,
  bank_account_id text not null,
  direction text not null,
  amount_kurus bigint not null,
  booked_on date not null,
  record jsonb not null,
  updated_at timestamptz not null
);
create table if not exists rm_statement_line_status (
  line_id uuid primary key,
  bank_account_id text not null,
  state text not null check (state in ('queued', 'matched', 'dismissed')),
  transaction_id uuid,
  record jsonb not null,
  updated_at timestamptz not null
);
create index if not exists rm_statement_line_status_queue on rm_statement_line_status (state, bank_account_id);
create index if not exists rm_statement_line_status_txn on rm_statement_line_status (transaction_id) where transaction_id is not null;
create table if not exists rm_reconciliation_settings (
  infrastructure_id text primary key, auto_approve boolean not null, record jsonb not null, updated_at timestamptz not null
);
`;

export const RECONCILIATION_TABLES = [
  'rm_statement_imports',
  'rm_statement_lines',
  'rm_statement_line_status',
  'rm_reconciliation_settings',
] as const;
