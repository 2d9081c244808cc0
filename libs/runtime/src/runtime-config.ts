import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { allowedTargetsFrom, egressPolicy } from '@transfergate/security';
import { PrivateFileRefusedError, makePrivateDir, writePrivateFile } from './private-files.js';

/**
 * Runtime configuration from the environment, validated once at start. Every bad value is reported
 * by name with what is expected, and the process exits before opening anything.
 */
export interface RuntimeConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  depositTtlMs: number;
  /**
   * FOUR_EYES_ABOVE_KURUS / FOUR_EYES_ABOVE_PERCENT: an operator's amount change whose size (new
   * amount against the requested one) is above this sum, or above this share of the requested amount
   * (0: no share limit), waits for a second operator.
   */
  fourEyes?: { aboveKurus: bigint; abovePercent: number };
  secretKey: Buffer;
  bodyLimitBytes: number;
  trustProxy: string[];
  adminPassword?: string;
  bootstrapFile?: string;
  shutdownTimeoutMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug';
  /** Where the JSON log lines go (tests, embedders); stdout when absent. Not from the environment. */
  logDestination?: { write(line: string): void };
  /** METRICS_TOKEN: /metrics then answers only `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** READY_MAX_LAG_EVENTS / READY_MAX_LAG_SECONDS: /ready is 503 while a consumer is further behind. */
  readiness?: { maxLagEvents: number; maxLagSeconds: number };
  /** Base of payment page links; defaults to this server on 127.0.0.1. */
  paymentPageUrl: string;
  testAuthEnabled: boolean;
  environment: 'production' | 'development';
  rateLimitPerMinute: number;
  /**
   * SECRET_ROTATION_OVERLAP_HOURS: how long a rotated provider secret stays accepted beside its
   * successor when the rotation does not say (default 24 h). Absent: the panel's default.
   */
  secretRotationOverlapSeconds?: number;
  /**
   * CALLBACK_ALLOWED_TARGETS: CIDR ranges callback URLs may reach although they are not public
   * (loopback, private, link-local ...). Absent or empty: public addresses only. Checked when an
   * infrastructure is saved (ledger) and on every connection (dispatcher).
   */
  callbackAllowedTargets?: string[];
  /** Callback dispatcher overrides (tests, ops); absent fields keep the dispatcher's defaults. */
  callbacks?: {
    retryScheduleMs?: number[];
    requestTimeoutMs?: number;
    leaseMs?: number;
    pollIntervalMs?: number;
    concurrency?: number;
  };
}

const integer = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      const n = Number(value);
      if (!/^\d+$/.test(value) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be an integer ${min}..${max} (got "${value}")` });
        return z.NEVER;
      }
      return n;
    });

const EnvSchema = z.object({
  PORT: integer('PORT', 1, 65_535, 3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^postgres(ql)?:\/\/.+/.test(v), {
      message: 'DATABASE_URL must be a postgres:// or postgresql:// URL',
    }),
  DEPOSIT_TTL_MINUTES: integer('DEPOSIT_TTL_MINUTES', 1, 1_440, 30),
  // 10,000.00 TRY; at most 10^15 kuruş (a safe integer).
  FOUR_EYES_ABOVE_KURUS: integer('FOUR_EYES_ABOVE_KURUS', 0, 1_000_000_000_000_000, 1_000_000),
  FOUR_EYES_ABOVE_PERCENT: integer('FOUR_EYES_ABOVE_PERCENT', 0, 10_000, 0),
  TRANSFERGATE_SECRET_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || Buffer.from(v, 'base64').length === 32, {
      message: 'TRANSFERGATE_SECRET_KEY must be 32 bytes in base64 (openssl rand -base64 32)',
    }),
  BODY_LIMIT_BYTES: integer('BODY_LIMIT_BYTES', 1_024, 10 * 1024 * 1024, 256 * 1024),
  TRUST_PROXY: z.string().optional(),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 10, {
      message: 'ADMIN_PASSWORD needs at least 10 characters',
    }),
  TRANSFERGATE_BOOTSTRAP: z.string().optional(),
  SHUTDOWN_TIMEOUT_MS: integer('SHUTDOWN_TIMEOUT_MS', 100, 600_000, 15_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug']).default('info'),
  PAYMENT_PAGE_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(v), {
      message: 'PAYMENT_PAGE_URL must be an http(s) URL such as https://pay.example.com',
    }),
  TEST_AUTH_ENABLED: z.enum(['true', 'false', '1', '0', '']).optional(),
  NODE_ENV: z.string().optional(),
  RATE_LIMIT_PER_MINUTE: integer('RATE_LIMIT_PER_MINUTE', 0, 1_000_000, 6_000),
  SECRET_ROTATION_OVERLAP_HOURS: integer('SECRET_ROTATION_OVERLAP_HOURS', 0, 168, 24),
  // Callback dispatcher (tests and ops). CALLBACK_RETRY_SCHEDULE_MS: comma list of
  // delays in ms, entry i before attempt i+1 (e.g. 0,200,200,200), used until an operator saves
  // callbackRetryScheduleSeconds in /panel/settings/api. CALLBACK_REQUEST_TIMEOUT_MS: 2xx must come within it
  // (default 15000). CALLBACK_LEASE_MS: a claimed delivery's lease (default 30000, > timeout + 1000).
  CALLBACK_RETRY_SCHEDULE_MS: z
    .string()
    .regex(
      /^\s*\d{1,8}(\s*,\s*\d{1,8}){0,19}\s*$/,
      'CALLBACK_RETRY_SCHEDULE_MS must be 1..20 comma-separated ms values',
    )
    .optional()
    .or(z.literal('')),
  CALLBACK_REQUEST_TIMEOUT_MS: integer('CALLBACK_REQUEST_TIMEOUT_MS', 100, 60_000, 15_000),
  CALLBACK_LEASE_MS: integer('CALLBACK_LEASE_MS', 1_100, 3_600_000, 0),
  CALLBACK_ALLOWED_TARGETS: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      try {
        egressPolicy(allowedTargetsFrom(value));
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  METRICS_TOKEN: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^[\x21-\x7e]{16,256}$/.test(v), {
      message: 'METRICS_TOKEN must be 16..256 printable characters without spaces',
    }),
  READY_MAX_LAG_EVENTS: integer('READY_MAX_LAG_EVENTS', 0, 10_000_000, 1_000),
  READY_MAX_LAG_SECONDS: integer('READY_MAX_LAG_SECONDS', 1, 86_400, 30),
});

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The embedded default keeps its sealing key next to its data (DATA_DIR/secret.key, mode 0600);
 * with a PostgreSQL server the key must come from TRANSFERGATE_SECRET_KEY, because a key stored in
 * the same database would protect nothing.
 */
function secretKeyFor(env: z.infer<typeof EnvSchema>, dataDir: string): Buffer {
  if (env.TRANSFERGATE_SECRET_KEY) return Buffer.from(env.TRANSFERGATE_SECRET_KEY, 'base64');
  if (env.DATABASE_URL) {
    throw new ConfigError([
      'TRANSFERGATE_SECRET_KEY is required with DATABASE_URL (32 bytes, base64: openssl rand -base64 32)',
    ]);
  }
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  // The data directory is created here on a first start: readable by this user only (private-files.ts).
  makePrivateDir(dataDir);
  const key = randomBytes(32);
  try {
    writePrivateFile(file, key.toString('base64'));
  } catch (error) {
    if (error instanceof PrivateFileRefusedError) throw new ConfigError([error.message]);
    throw error;
  }
  return key;
}

/** The variables that carry secrets: the deploy files' Secret has placeholders for these. */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'TRANSFERGATE_SECRET_KEY',
  'SECRET_KEY',
  'ADMIN_PASSWORD',
  'METRICS_TOKEN',
] as const;

/** The mark of a placeholder in the deploy files (deploy/k8s/config.yaml: `CHANGE-ME…`). */
const PLACEHOLDER = /CHANGE[-_ ]?ME/i;

/**
 * A secret still holding the deploy files' placeholder is refused at start: it would otherwise pass
 * every other check (`CHANGE-ME-at-least-10-chars` is a valid password, a URL with the password
 * `CHANGE-ME` a valid URL) and run production on a value published in the repository.
 */
export function placeholderProblems(env: NodeJS.ProcessEnv): string[] {
  return SECRET_VARIABLES.filter((name) => PLACEHOLDER.test(env[name] ?? '')).map(
    (name) => `${name}: still the deploy files' placeholder (CHANGE-ME); set a real value`,
  );
}

export interface RuntimeConfigOverrides {
  bootstrapFile?: string;
  /**
   * `not-used`: this process never seals or opens a secret (a service that is not given
   * TRANSFERGATE_SECRET_KEY): none is required, and reading `secretKey` throws instead of inventing one.
   */
  secretKey?: 'required' | 'not-used';
}

export function loadRuntimeConfig(env: NodeJS.ProcessEnv, overrides: RuntimeConfigOverrides = {}): RuntimeConfig {
  const parsed = EnvSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
    ...placeholderProblems(env),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const callbackLeaseMs = e.CALLBACK_LEASE_MS || Math.max(30_000, e.CALLBACK_REQUEST_TIMEOUT_MS + 15_000);
  if (callbackLeaseMs < e.CALLBACK_REQUEST_TIMEOUT_MS + 1_000) {
    throw new ConfigError(['CALLBACK_LEASE_MS must be at least CALLBACK_REQUEST_TIMEOUT_MS + 1000']);
  }
  const withoutKey = overrides.secretKey === 'not-used' && !e.TRANSFERGATE_SECRET_KEY;
  const config: RuntimeConfig = {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    ...(e.DATABASE_URL ? { databaseUrl: e.DATABASE_URL } : {}),
    depositTtlMs: e.DEPOSIT_TTL_MINUTES * 60_000,
    fourEyes: { aboveKurus: BigInt(e.FOUR_EYES_ABOVE_KURUS), abovePercent: e.FOUR_EYES_ABOVE_PERCENT },
    secretKey: withoutKey ? Buffer.alloc(0) : secretKeyFor(e, dataDir),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    trustProxy: (e.TRUST_PROXY ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    ...(e.ADMIN_PASSWORD ? { adminPassword: e.ADMIN_PASSWORD } : {}),
    ...((overrides.bootstrapFile ?? e.TRANSFERGATE_BOOTSTRAP)
      ? { bootstrapFile: overrides.bootstrapFile ?? e.TRANSFERGATE_BOOTSTRAP }
      : {}),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
    readiness: { maxLagEvents: e.READY_MAX_LAG_EVENTS, maxLagSeconds: e.READY_MAX_LAG_SECONDS },
    paymentPageUrl: (e.PAYMENT_PAGE_URL || `http://127.0.0.1:${e.PORT}`).replace(/\/+$/, ''),
    testAuthEnabled: e.TEST_AUTH_ENABLED === 'true' || e.TEST_AUTH_ENABLED === '1',
    environment: e.NODE_ENV === 'development' ? 'development' : 'production',
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    secretRotationOverlapSeconds: e.SECRET_ROTATION_OVERLAP_HOURS * 3_600,
    callbackAllowedTargets: allowedTargetsFrom(e.CALLBACK_ALLOWED_TARGETS),
    callbacks: {
      ...(e.CALLBACK_RETRY_SCHEDULE_MS ? { retryScheduleMs: e.CALLBACK_RETRY_SCHEDULE_MS.split(',').map(Number) } : {}),
      requestTimeoutMs: e.CALLBACK_REQUEST_TIMEOUT_MS,
      leaseMs: callbackLeaseMs,
    },
  };
  if (withoutKey) {
    // A process that was not given the key must never seal with one it made up (what it sealed
    // could not be opened by the others): reading it is a configuration error, loudly.
    Object.defineProperty(config, 'secretKey', {
      enumerable: false,
      get(): Buffer {
        throw new ConfigError(['TRANSFERGATE_SECRET_KEY is not given to this service, which does not use it']);
      },
    });
  }
  return config;
}

/** Every environment variable loadRuntimeConfig reads (docs/operations.md's configuration table lists them). */
export const RUNTIME_ENV_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);
