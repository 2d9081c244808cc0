import { Global, Module, type DynamicModule } from '@nestjs/common';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { DatabaseScrapeSources } from './metrics/database-sources.js';
import { MetricsController } from './metrics/metrics.controller.js';
import type { Observability } from './observability.js';
import { ReadinessController } from './readiness/readiness.controller.js';
import { CONSUMER_LAG_SOURCE, METRICS_TOKEN, READINESS_SETTINGS, ROOT_LOGGER, TRANSFERGATE_METRICS } from './tokens.js';

/**
 * GET /metrics and GET /ready for one process, over the database it was given (SQL_DATABASE) and the
 * metrics registry created with `createObservability`. Global: services inject TRANSFERGATE_METRICS
 * or ROOT_LOGGER without importing it.
 */
@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(observability: Observability): DynamicModule {
    return {
      module: ObservabilityModule,
      controllers: [MetricsController, ReadinessController],
      providers: [
        { provide: TRANSFERGATE_METRICS, useValue: observability.metrics },
        { provide: ROOT_LOGGER, useValue: observability.logger },
        { provide: METRICS_TOKEN, useValue: observability.metricsToken },
        { provide: READINESS_SETTINGS, useValue: observability.readiness },
        {
          provide: CONSUMER_LAG_SOURCE,
          inject: [SQL_DATABASE],
          useFactory: (db: SqlDatabase) => {
            const sources = new DatabaseScrapeSources(db);
            observability.metrics.useSources(sources);
            return sources;
          },
        },
      ],
      exports: [TRANSFERGATE_METRICS, ROOT_LOGGER, CONSUMER_LAG_SOURCE],
    };
  }
}
