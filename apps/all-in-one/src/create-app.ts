import 'reflect-metadata';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { openDatabase, PostgresEventStore, type SqlDatabase } from '@transfergate/event-store';
import { CALLBACK_SETTINGS, type CallbackSettings } from '@transfergate/callback-dispatcher';
import { registerProviderRateLimit, type GatewaySettings } from '@transfergate/gateway-api';
import { LedgerProjectionRunner } from '@transfergate/ledger';
import { registerAllowedMethods } from '@transfergate/runtime/http';
import {
  createObservability,
  generateRequestId,
  instrumentEventStore,
  registerHttpObservability,
  type Observability,
} from '@transfergate/observability';
import { PANEL_SETTINGS, registerPanelWeb, type PanelSettings } from '@transfergate/panel-api';
import { registerDuplicateKeyRefusal, registerUnstorableTextGuard } from '@transfergate/runtime/http';
import { AllInOneModule } from './app.module.js';
import type { RuntimeConfig } from './config/runtime-config.js';
import { applyBootstrap, ensureFirstAdmin, type ProvisionSummary } from './provisioning/provisioner.js';
import type { BootstrapFile } from './provisioning/bootstrap-file.js';

/**
 * Start-up waits for the projection longer than a consumer lease (15 s): after a crash the dead
 * process still holds the lease until it expires, and the restart must outlast that, not fail.
 */
const STARTUP_SETTLE_MS = 60_000;

export interface RunningApp {
  app: NestFastifyApplication;
  db: SqlDatabase;
  store: PostgresEventStore;
  commands: CommandBus;
  /** Every HTTP route (method, url pattern) the app serves. */
  routes: ReadonlyArray<{ method: string; url: string }>;
  /** Metrics registry and root logger of this process. */
  observability: Observability;
  /** The gateway's live settings object (tests point payment links at their own port). */
  gatewaySettings: GatewaySettings;
  /** Applies a bootstrap file and waits until the read models include it. */
  provision(file: BootstrapFile): Promise<ProvisionSummary>;
  ensureFirstAdmin(): Promise<{ created: boolean; generatedPassword?: string }>;
  /** Waits until the projections have applied everything appended so far. */
  settle(timeoutMs?: number): Promise<void>;
  /** Stops taking requests, drains in-flight ones, stops consumers, closes the database. */
  close(): Promise<void>;
}

export async function createApp(config: RuntimeConfig, options: { schema?: string } = {}): Promise<RunningApp> {
  const db = await openDatabase({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: join(config.dataDir, 'pgdata') }),
    ...(options.schema ? { schema: options.schema } : {}),
  });
  // A start that fails after the database is open releases it, and with it the data directory's lock:
  // the caller may try again in this process, and nothing of the failed app keeps the process alive.
  try {
    return await startOn(db, config);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

async function startOn(db: SqlDatabase, config: RuntimeConfig): Promise<RunningApp> {
  const observability = createObservability({
    service: 'all-in-one',
    logLevel: config.logLevel,
    ...(config.logDestination ? { logDestination: config.logDestination } : {}),
    ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
    ...(config.readiness ? { readiness: config.readiness } : {}),
  });
  // Wrapped before any service holds it: appends are timed, logged and stamped with the request id.
  const store = instrumentEventStore(
    await PostgresEventStore.create(db),
    observability.metrics,
    observability.logger.child({ context: 'LedgerEvents' }),
  );
  const gatewaySettings: GatewaySettings = {
    paymentPageUrl: config.paymentPageUrl,
    testAuthEnabled: config.testAuthEnabled,
    environment: config.environment,
    rateLimitPerMinute: config.rateLimitPerMinute,
  };
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Path length bound (TIGER_STYLE): nothing in the contract needs more.
    routerOptions: { maxParamLength: 256 },
    // A caller's sane x-request-id is kept (and echoed); otherwise a fresh UUID.
    genReqId: generateRequestId,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AllInOneModule.forRoot(
      db,
      store,
      {
        depositTtlMs: config.depositTtlMs,
        fourEyes: config.fourEyes,
        secretKey: config.secretKey,
        callbackAllowedTargets: config.callbackAllowedTargets ?? [],
      },
      gatewaySettings,
      observability,
    ),
    adapter,
    { logger: observability.nestLogger, abortOnError: false },
  );
  // Every route as registered, for the route-sweep tests and ops' inspection.
  const routes: Array<{ method: string; url: string }> = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method: String(method), url: route.url });
    });
  // A known path asked with another method answers 405 with Allow (the error filter asks this).
  registerAllowedMethods(app.getHttpAdapter().getInstance());
  registerHttpObservability(app.getHttpAdapter().getInstance(), {
    metrics: observability.metrics,
    logger: observability.logger.child({ context: 'Http' }),
  });
  registerUnstorableTextGuard(app.getHttpAdapter().getInstance());
  registerDuplicateKeyRefusal(app);
  await registerProviderRateLimit(app.getHttpAdapter().getInstance(), gatewaySettings);
  // The operator UI under /admin/ (503 with a hint when apps/panel-web is not built).
  await registerPanelWeb(app.getHttpAdapter().getInstance());
  // The dispatcher reads its settings when it starts (app.init), so the runtime's overrides go in first.
  Object.assign(app.get<string, CallbackSettings>(CALLBACK_SETTINGS), config.callbacks ?? {}, {
    allowedTargets: config.callbackAllowedTargets ?? [],
  });
  if (config.secretRotationOverlapSeconds !== undefined) {
    app.get<string, PanelSettings>(PANEL_SETTINGS).secretRotationOverlapSeconds = config.secretRotationOverlapSeconds;
  }
  if (config.callbacks?.retryScheduleMs) {
    app.get<string, PanelSettings>(PANEL_SETTINGS).runtimeApiSettings.callbackRetryScheduleMs =
      config.callbacks.retryScheduleMs;
  }
  try {
    await app.init();
  } catch (error) {
    // Modules that started before the failing one (the projection, the dispatcher) are stopped.
    await app.close().catch(() => undefined);
    throw error;
  }
  const commands = app.get(CommandBus);
  const projection = app.get(LedgerProjectionRunner);
  const settle = async (timeoutMs = 15_000) => projection.waitFor(await store.headPosition(), timeoutMs);

  return {
    app,
    db,
    store,
    commands,
    routes,
    observability,
    gatewaySettings,
    async provision(file) {
      const summary = await applyBootstrap(commands, db, file);
      await settle(STARTUP_SETTLE_MS);
      return summary;
    },
    async ensureFirstAdmin() {
      const result = await ensureFirstAdmin(commands, db, config.adminPassword);
      await settle(STARTUP_SETTLE_MS);
      return result;
    },
    settle,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
