import 'reflect-metadata';
import { Global, Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import * as contracts from '@transfergate/contracts';
import {
  EVENT_STORE,
  openDatabase,
  openReplicaLiveness,
  PostgresEventStore,
  SQL_DATABASE,
  type SqlDatabase,
} from '@transfergate/event-store';
import {
  createTransportServer,
  messageCatalogOf,
  ProcessNoticesModule,
  RemoteBusBridge,
  RemoteBusModule,
} from '@transfergate/messaging';
import {
  createObservability,
  generateRequestId,
  instrumentEventStore,
  ObservabilityModule,
  registerHttpObservability,
} from '@transfergate/observability';
import type { FastifyInstance } from 'fastify';
import { ConfigError } from './runtime-config.js';
import { loadServiceConfig, type DistributedServiceName, type ServiceConfig } from './service-config.js';
import { ServiceHealthController, ServiceLifecycle } from './service-health.js';
import { FormErrorFilter } from './http-errors/form-error.filter.js';
import { registerUnstorableTextGuard } from './http-input/unstorable-text.guard.js';
import { registerDuplicateKeyRefusal } from './http-input/duplicate-json-keys.js';
import { registerAllowedMethods } from './http-errors/allowed-methods.js';

export interface ServiceSpec {
  service: DistributedServiceName;
  /** The service's own module (unchanged from the embedded runtime). */
  module: Type | DynamicModule;
  /** Settings tokens the module needs from its runtime (the embedded PersistenceModule's job). */
  providers?: (config: ServiceConfig) => Provider[];
  /** Ledger and dispatcher read the event store; the others only use SQL_DATABASE. */
  eventStore?: boolean;
  /** Fastify plugins and hooks that must be registered before the routes (rate limit, static UI). */
  configureHttp?: (fastify: FastifyInstance, config: ServiceConfig) => Promise<void>;
  /**
   * The gateway module registers the one error filter itself (APP_FILTER); in the embedded app it also
   * answers the other modules' errors, so every other service process gets the same filter here.
   */
  registersErrorFilter?: boolean;
}

export interface RunningService {
  app: NestFastifyApplication;
  db: SqlDatabase;
  config: ServiceConfig;
  close(): Promise<void>;
}

@Global()
@Module({})
class ServiceRuntimeModule {
  static forRoot(db: SqlDatabase, store: PostgresEventStore | undefined, extra: Provider[]): DynamicModule {
    const tokens = extra.map((p) => (typeof p === 'function' ? p : p.provide));
    return {
      module: ServiceRuntimeModule,
      imports: [CqrsModule],
      controllers: [ServiceHealthController],
      providers: [
        ServiceLifecycle,
        { provide: SQL_DATABASE, useValue: db },
        ...(store ? [{ provide: EVENT_STORE, useValue: store }] : []),
        ...extra,
      ],
      exports: [SQL_DATABASE, ...(store ? [EVENT_STORE] : []), ServiceLifecycle, ...tokens],
    };
  }
}

/**
 * Starts one service as its own process: its module over HTTP (Fastify) with /livez and /readyz,
 * plus a listener on the transport (hybrid app) for the commands and queries it handles; every other
 * command or query its code sends goes over the transport (RemoteBusBridge).
 */
export async function startService(spec: ServiceSpec, env: NodeJS.ProcessEnv = process.env): Promise<RunningService> {
  const config = loadServiceConfig(env, spec.service);
  const { runtime } = config;
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
  });
  try {
    // Metrics, JSON logs and request ids as in the embedded app, named after this service.
    const observability = createObservability({
      service: spec.service,
      logLevel: runtime.logLevel,
      ...(runtime.logDestination ? { logDestination: runtime.logDestination } : {}),
      ...(runtime.metricsToken ? { metricsToken: runtime.metricsToken } : {}),
      ...(runtime.readiness ? { readiness: runtime.readiness } : {}),
    });
    const store = spec.eventStore
      ? instrumentEventStore(
          await PostgresEventStore.create(db),
          observability.metrics,
          observability.logger.child({ context: 'LedgerEvents' }),
        )
      : undefined;
    // Kafka only: live replicas remove a dead one from their group at once (docs/operations.md, "Kafka failover").
    const liveness =
      config.transport.kind === 'kafka'
        ? await openReplicaLiveness(db, (error) =>
            observability.logger.warn({ msg: 'replica liveness session dropped', error: String(error) }),
          )
        : undefined;
    const server = createTransportServer(config.transport, spec.service, liveness);
    @Module({
      imports: [
        ServiceRuntimeModule.forRoot(db, store, spec.providers?.(config) ?? []),
        ObservabilityModule.forRoot(observability),
        RemoteBusModule.forRoot({
          service: spec.service,
          transport: config.transport,
          catalog: messageCatalogOf(contracts),
          server,
        }),
        // Notices every process hears (the projection's cache invalidations), on the same transport.
        ProcessNoticesModule.forRoot({ service: spec.service, transport: config.transport }),
        spec.module,
      ],
    })
    class ServiceRootModule {}

    const adapter = new FastifyAdapter({
      bodyLimit: runtime.bodyLimitBytes,
      trustProxy: runtime.trustProxy.length > 0 ? runtime.trustProxy : false,
      routerOptions: { maxParamLength: 256 },
      genReqId: generateRequestId,
    });
    const app = await NestFactory.create<NestFastifyApplication>(ServiceRootModule, adapter, {
      logger: observability.nestLogger,
      abortOnError: false,
    });
    if (!spec.registersErrorFilter) app.useGlobalFilters(new FormErrorFilter());
    app.connectMicroservice({ strategy: server });
    registerAllowedMethods(app.getHttpAdapter().getInstance());
    registerHttpObservability(app.getHttpAdapter().getInstance(), {
      metrics: observability.metrics,
      logger: observability.logger.child({ context: 'Http' }),
    });
    registerUnstorableTextGuard(app.getHttpAdapter().getInstance());
    registerDuplicateKeyRefusal(app);
    await spec.configureHttp?.(app.getHttpAdapter().getInstance(), config);
    await app.init();
    await app.startAllMicroservices();
    await app.listen({ port: runtime.port, host: runtime.host });
    const lifecycle = app.get(ServiceLifecycle);
    lifecycle.started = true;
    const routes = app.get(RemoteBusBridge).routes;
    observability.logger.info(
      {
        host: runtime.host,
        port: runtime.port,
        transport: config.transport.kind,
        served: routes.served.length,
        forwarded: routes.forwarded.length,
      },
      `${spec.service} listening`,
    );
    return {
      app,
      db,
      config,
      async close() {
        lifecycle.draining = true;
        await app.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

/**
 * The body of every `services/<name>/src/main.ts`: start, drain on SIGTERM/SIGINT within
 * SHUTDOWN_TIMEOUT_MS, exit 2 on a configuration error and 1 on any other start failure.
 */
export function runServiceMain(spec: ServiceSpec): void {
  let running: RunningService | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${spec.service}: ${signal}, draining in-flight requests, then exiting`);
    const force = setTimeout(() => {
      console.error(`${spec.service}: shutdown did not finish in time; exiting`);
      process.exit(1);
    }, running?.config.runtime.shutdownTimeoutMs ?? 15_000);
    force.unref();
    try {
      await running?.close();
      process.exit(0);
    } catch (error) {
      console.error(`${spec.service}: shutdown failed: ${String(error)}`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  startService(spec).then(
    (started) => {
      running = started;
      if (closing) void started.close();
    },
    (error: unknown) => {
      if (error instanceof ConfigError) {
        console.error(error.message);
        process.exit(2);
      }
      console.error(`${spec.service} failed to start: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
