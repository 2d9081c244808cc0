#!/usr/bin/env node
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetApiSettingsQuery, explicitApiSettings } from '@transfergate/contracts';
import { runServiceMain, type RuntimeConfig } from '@transfergate/runtime';
import { GatewayApiModule } from './gateway-api.module.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from './gateway.settings.js';
import { registerProviderRateLimit } from './rate-limit/provider-rate-limit.js';

/** The merchant-facing gateway as its own process (distributed mode): commands go to the ledger over the transport. */

/** How soon an operator's saved API settings reach a gateway process. */
const SETTINGS_FOLLOW_INTERVAL_MS = 5_000;

// One settings object for the module and the rate limiter: both read it on every request.
let settings: GatewaySettings | undefined;
function settingsOf(runtime: RuntimeConfig): GatewaySettings {
  settings ??= {
    paymentPageUrl: runtime.paymentPageUrl,
    testAuthEnabled: runtime.testAuthEnabled,
    environment: runtime.environment,
    rateLimitPerMinute: runtime.rateLimitPerMinute,
  };
  return settings;
}

/**
 * In the embedded app the panel writes saved API settings onto the gateway's live settings object; a
 * separate gateway process reads them from the ledger instead (stored values win over the
 * environment, as there). The rate limit keeps its start-up value in both modes.
 */
@Injectable()
class StoredSettingsFollower implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('GatewaySettings');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly queries: QueryBus,
    @Inject(GATEWAY_SETTINGS) private readonly live: GatewaySettings,
  ) {}

  onApplicationBootstrap(): void {
    // First read once start-up is over (the transport is connected by then), then periodically.
    this.timer = setTimeout(() => void this.follow(), 0);
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
  }

  private async follow(): Promise<void> {
    try {
      const { stored } = await this.queries.execute(new GetApiSettingsQuery());
      // Only what an operator set; the rest stays this process's configuration.
      const set = explicitApiSettings(stored);
      if (set.testAuthEnabled !== undefined) this.live.testAuthEnabled = set.testAuthEnabled;
      // An empty stored base must never turn payment links into relative paths.
      if (set.paymentPageUrl) this.live.paymentPageUrl = set.paymentPageUrl;
    } catch (error) {
      this.logger.warn(`stored API settings not read, keeping the current ones: ${(error as Error).message}`);
    }
    this.timer = setTimeout(() => void this.follow(), SETTINGS_FOLLOW_INTERVAL_MS);
    this.timer.unref();
  }
}

runServiceMain({
  service: 'gateway-api',
  module: GatewayApiModule,
  registersErrorFilter: true,
  providers: ({ runtime }) => [{ provide: GATEWAY_SETTINGS, useValue: settingsOf(runtime) }, StoredSettingsFollower],
  configureHttp: (fastify, { runtime }) => registerProviderRateLimit(fastify, settingsOf(runtime)),
});
