import pino, { type DestinationStream, type Logger } from 'pino';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';

export type LogLevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Paths pino blanks before a line is written. Secrets must never reach a log: credentials in
 * headers, and every body field the wire contract uses for a secret, a signature or a password.
 */
export const REDACTED_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-api-secret"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'headers["x-api-secret"]',
  'headers["webhook-signature"]',
  '*.password',
  '*.newPassword',
  '*.oldPassword',
  '*.hash',
  '*.apiSecret',
  '*.ApiSecret',
  '*.apikey',
  '*.apiKey',
  '*.ApiKey',
  '*.SecurityKey',
  '*.secret',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  'password',
  'hash',
  'apiSecret',
  'secret',
  'token',
];

export interface LoggerOptions {
  /** `service` field of every line: which service (process) wrote it. */
  service: string;
  level: LogLevelName;
  /** Where the JSON lines go: stdout unless a test or an embedder gives a stream. */
  destination?: DestinationStream;
  /**
   * Human-readable lines (pino-pretty) instead of JSON. Default: when stdout is a terminal and
   * LOG_FORMAT is not `json`, or when LOG_FORMAT is `text`; log collectors (a pipe, a file,
   * Kubernetes) get JSON unless LOG_FORMAT=text asks for lines.
   */
  pretty?: boolean;
}

/** A person at a terminal reads lines (or whoever sets LOG_FORMAT=text); everything else gets JSON. */
export function prettyByDefault(): boolean {
  if (process.env.LOG_FORMAT === 'text') return true;
  return Boolean(process.stdout.isTTY) && process.env.LOG_FORMAT !== 'json';
}

/**
 * One JSON line per log call: `time` (ISO 8601, UTC), `level` (label), `service`, `context` (the Nest
 * logger's name), `requestId` when the line belongs to a request or an event that carries one (the
 * line names it itself: request-context.ts), `msg`.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    },
    options.destination ??
      ((options.pretty ?? prettyByDefault())
        ? prettyStream({
            colorize: true,
            translateTime: 'SYS:HH:MM:ss',
            ignore: 'pid,hostname,service',
            singleLine: true,
          })
        : pino.destination({ fd: 1, sync: false })),
  );
}

/** pino-pretty only where a terminal reads the lines: a server writing JSON never loads it. */
function prettyStream(options: PinoPretty.PrettyOptions): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pretty(options);
}
