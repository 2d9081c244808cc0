/**
 * TOTP replay protection: the last time step accepted per operator (and per secret, by fingerprint,
 * so a new enrollment starts fresh). A table rather than process memory because panel-api may run
 * as several replicas, and a code must not be accepted twice across them; one conditional upsert
 * claims a step, so two concurrent requests with the same code cannot both succeed.
 */
export const TOTP_REPLAY_SCHEMA = `
create table if not exists panel_totp_used_steps (
  operator_id text primary key,
  secret_fingerprint text not null,
  time_step bigint not null,
  updated_at timestamptz not null default now()
);
`;
