/**
 * Operator session state. Not domain events: refresh tokens, lockout counters and 2FA challenges are
 * short-lived security state that must be revocable at once; who did what is in the event stream.
 */
export const PANEL_AUTH_SCHEMA = `
create table if not exists panel_sessions (
  session_id uuid primary key,
  operator_id text not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  revoked_reason text
);
create table if not exists panel_refresh_tokens (
  token_hash text primary key,
  session_id uuid not null references panel_sessions (session_id),
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index if not exists panel_refresh_tokens_session on panel_refresh_tokens (session_id);
create table if not exists panel_used_challenges (
  jti text primary key,
  expires_at timestamptz not null
);
create table if not exists panel_login_failures (
  subject text primary key,
  failures integer not null default 0,
  locked_until timestamptz,
  updated_at timestamptz not null default now()
);
`;
