import { transportConfigFrom, type TransportConfig } from '@transfergate/messaging';
import { ConfigError, loadRuntimeConfig, type RuntimeConfig } from './runtime-config.js';

/** Default HTTP port of each service process (compose and k8s files use these; PORT overrides). */
export const SERVICE_PORTS = {
  'gateway-api': 8080,
  ledger: 8081,
  'panel-api': 8082,
  'callback-dispatcher': 8083,
  'webhook-ingest': 8084,
} as const;

export type DistributedServiceName = keyof typeof SERVICE_PORTS;

/**
 * The secrets each service process reads, and nothing more: a deployment hands each service only
 * these keys of its Secret (deploy/k8s), so a compromised gateway never holds the sealing key. Every
 * service opens the database and guards /metrics; only the ledger (provider secrets), the panel
 * (two-factor secrets) and the callback dispatcher (signing callbacks) seal or open secrets.
 */
export const SERVICE_SECRETS: Record<DistributedServiceName, readonly string[]> = {
  'gateway-api': ['DATABASE_URL', 'METRICS_TOKEN'],
  ledger: ['DATABASE_URL', 'TRANSFERGATE_SECRET_KEY', 'METRICS_TOKEN'],
  'panel-api': ['DATABASE_URL', 'TRANSFERGATE_SECRET_KEY', 'METRICS_TOKEN'],
  'callback-dispatcher': ['DATABASE_URL', 'TRANSFERGATE_SECRET_KEY', 'METRICS_TOKEN'],
  'webhook-ingest': ['DATABASE_URL', 'METRICS_TOKEN'],
};

/** What the one-off provisioning run (provision-main) reads: the first admin's password is its alone. */
export const PROVISIONING_SECRETS: readonly string[] = ['DATABASE_URL', 'ADMIN_PASSWORD'];

export interface ServiceConfig {
  runtime: RuntimeConfig;
  transport: TransportConfig;
  databaseUrl: string;
  /** DATABASE_SCHEMA: every service of one deployment uses the same schema (tests use a fresh one). */
  databaseSchema?: string;
}

/**
 * The runtime configuration of one service process: the embedded runtime's validation (same names,
 * same errors) plus the distributed settings. A PostgreSQL server is required: separate processes
 * cannot share an embedded PGlite. SECRET_KEY is accepted as the name of TRANSFERGATE_SECRET_KEY.
 */
export function loadServiceConfig(env: NodeJS.ProcessEnv, service: DistributedServiceName): ServiceConfig {
  if (!env.DATABASE_URL) throw new ConfigError(['DATABASE_URL is required in distributed mode (a PostgreSQL server)']);
  const schema = env.DATABASE_SCHEMA || undefined;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError(['DATABASE_SCHEMA must be a lower-case SQL identifier of at most 63 characters']);
  }
  const runtime = loadRuntimeConfig(
    {
      ...env,
      PORT: env.PORT || String(SERVICE_PORTS[service]),
      TRANSFERGATE_SECRET_KEY: env.TRANSFERGATE_SECRET_KEY || env.SECRET_KEY,
    },
    { secretKey: SERVICE_SECRETS[service].includes('TRANSFERGATE_SECRET_KEY') ? 'required' : 'not-used' },
  );
  let transport: TransportConfig;
  try {
    transport = transportConfigFrom(env);
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  return { runtime, transport, databaseUrl: env.DATABASE_URL, ...(schema ? { databaseSchema: schema } : {}) };
}
