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
  /** The design's other engines, read by the ledger only (docs/decisions/0064-engines-fed-by-the-ledger.md). */
  engines: EngineUrls;
}

/** KURRENTDB_URL and MONGODB_URL: when set, the ledger feeds KurrentDB and MongoDB. */
export interface EngineUrls {
  kurrentdbUrl?: string;
  mongodbUrl?: string;
}

const KURRENTDB_URL = /^(kurrentdb|kdb|esdb|eventstore)(\+discover)?:\/\/[^\s]+$/;
const MONGODB_URL = /^mongodb(\+srv)?:\/\/[^\s]+$/;
/** Longest engine URL accepted (TIGER_STYLE: an explicit bound on configuration text). */
export const MAX_ENGINE_URL_LENGTH = 2_048;

/** The engine URLs of `env`; a malformed one is a ConfigError naming the variable (never its value). */
export function engineUrlsFrom(env: NodeJS.ProcessEnv): EngineUrls {
  const problems: string[] = [];
  const read = (name: 'KURRENTDB_URL' | 'MONGODB_URL', shape: RegExp, expected: string): string | undefined => {
    const value = env[name]?.trim();
    if (!value) return undefined;
    if (value.length > MAX_ENGINE_URL_LENGTH || !shape.test(value)) {
      problems.push(`${name} must be ${expected}`);
      return undefined;
    }
    return value;
  };
  const kurrentdbUrl = read('KURRENTDB_URL', KURRENTDB_URL, 'a kurrentdb:// (or esdb://) connection string');
  const mongodbUrl = read('MONGODB_URL', MONGODB_URL, 'a mongodb:// or mongodb+srv:// URL');
  if (problems.length > 0) throw new ConfigError(problems);
  return { ...(kurrentdbUrl ? { kurrentdbUrl } : {}), ...(mongodbUrl ? { mongodbUrl } : {}) };
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
  return {
    runtime,
    transport,
    databaseUrl: env.DATABASE_URL,
    ...(schema ? { databaseSchema: schema } : {}),
    engines: service === 'ledger' ? engineUrlsFrom(env) : {},
  };
}
