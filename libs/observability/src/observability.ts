import type { DestinationStream, Logger } from 'pino';
import { createLogger, type LogLevelName } from './logging/logger.js';
import { PinoNestLogger } from './logging/nest-logger.js';
import { TransfergateMetrics } from './metrics/transfergate-metrics.js';
import { DEFAULT_READINESS, type ReadinessSettings } from './readiness/readiness.settings.js';

export interface ObservabilityOptions {
  /** The service (process) name on every log line: `all-in-one`, `ledger`, `gateway-api` … */
  service: string;
  logLevel: LogLevelName;
  logDestination?: DestinationStream;
  /** With a token, /metrics answers only `Authorization: Bearer <token>`. */
  metricsToken?: string;
  readiness?: Partial<ReadinessSettings>;
  /** Node's process_* and nodejs_* series (default on). */
  defaultMetrics?: boolean;
}

/** One process's metrics registry and logger, created before Nest so the store can be wrapped first. */
export interface Observability {
  service: string;
  metrics: TransfergateMetrics;
  logger: Logger;
  nestLogger: PinoNestLogger;
  metricsToken: string | undefined;
  readiness: ReadinessSettings;
}

export function createObservability(options: ObservabilityOptions): Observability {
  const readiness = { ...DEFAULT_READINESS, ...options.readiness };
  if (!(Number.isInteger(readiness.maxLagEvents) && readiness.maxLagEvents >= 0)) {
    throw new RangeError(`readiness maxLagEvents must be a non-negative integer, got ${readiness.maxLagEvents}`);
  }
  if (!(readiness.maxLagSeconds > 0)) {
    throw new RangeError(`readiness maxLagSeconds must be positive, got ${readiness.maxLagSeconds}`);
  }
  const logger = createLogger({
    service: options.service,
    level: options.logLevel,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  return {
    service: options.service,
    metrics: new TransfergateMetrics({ defaultMetrics: options.defaultMetrics ?? true }),
    logger,
    nestLogger: new PinoNestLogger(logger),
    metricsToken: options.metricsToken || undefined,
    readiness,
  };
}
