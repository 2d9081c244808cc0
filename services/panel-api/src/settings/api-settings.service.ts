import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ConfigureApiSettingsCommand,
  DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS,
  GetApiSettingsQuery,
  type ApiSettingsInput,
  type ApiSettingsRequest,
  type ApiSettingsState,
  type PanelApiSettings,
} from '@transfergate/contracts';
import { actorOf, type OperatorContext } from '../auth/decorators.js';
import { RecordBus } from '../records/record-commands.js';
import { LIVE_GATEWAY_SETTINGS, type LiveGatewaySettings } from './live-gateway-settings.js';

/** The settings as the panel and /api/config/settings/public show them (the contract's payment_page_url). */
export function apiSettingsWire(values: ApiSettingsInput) {
  return {
    testAuthEnabled: values.testAuthEnabled,
    payment_page_url: values.paymentPageUrl,
    depositTtlMinutes: values.depositTtlMinutes,
    callbackRetryScheduleSeconds: [...values.callbackRetryScheduleSeconds],
    rateLimitPerMinute: values.rateLimitPerMinute,
  };
}

/**
 * /panel/settings/api. The settings are events (ApiSettingsConfigured on `settings-api`, written
 * by the ledger); before the first save they are the runtime configuration the process started with.
 * Where each one takes effect:
 * - testAuthEnabled, payment_page_url: copied onto the gateway's live settings object at start-up
 *   (stored values win over the environment) and right after each successful save;
 * - depositTtlMinutes: applied by the ledger itself (deposits requested from then on);
 * - callbackRetryScheduleSeconds: stored for the callback dispatcher (issue #5);
 * - rateLimitPerMinute: stored and copied onto the live object, but the rate limiter is registered
 *   once at start-up with RATE_LIMIT_PER_MINUTE and keeps that max (also after a restart, since it is
 *   registered before stored settings are read). Making it live needs the gateway's limiter to read
 *   `max` from the settings object per request; that is left for later.
 */
@Injectable()
export class ApiSettingsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('ApiSettings');
  /** The limit the gateway's rate limiter was registered with (the object is changed later). */
  private readonly startupRateLimit: number | undefined;

  constructor(
    private readonly bus: RecordBus,
    private readonly queries: QueryBus,
    @Optional() @Inject(LIVE_GATEWAY_SETTINGS) private readonly live?: LiveGatewaySettings,
  ) {
    this.startupRateLimit = live?.rateLimitPerMinute;
  }

  /** The limit the running rate limiter enforces (what integrators actually get). */
  get enforcedRateLimitPerMinute(): number | undefined {
    return this.startupRateLimit;
  }

  async onApplicationBootstrap(): Promise<void> {
    const state = await this.queries.execute(new GetApiSettingsQuery());
    if (state.stored) {
      this.applyToGateway(state.stored);
      this.logger.log('stored API settings applied to the gateway');
    }
  }

  async view() {
    const state = await this.queries.execute(new GetApiSettingsQuery());
    return this.present(this.effective(state), state);
  }

  async publicView() {
    return apiSettingsWire(this.effective(await this.queries.execute(new GetApiSettingsQuery())));
  }

  async update(input: ApiSettingsRequest, operator: OperatorContext) {
    const state = await this.queries.execute(new GetApiSettingsQuery());
    const current = this.effective(state);
    const next: ApiSettingsInput = {
      testAuthEnabled: input.testAuthEnabled ?? current.testAuthEnabled,
      paymentPageUrl: input.payment_page_url ?? input.paymentPageUrl ?? current.paymentPageUrl,
      depositTtlMinutes: input.depositTtlMinutes ?? current.depositTtlMinutes,
      callbackRetryScheduleSeconds: input.callbackRetryScheduleSeconds ?? current.callbackRetryScheduleSeconds,
      rateLimitPerMinute: input.rateLimitPerMinute ?? current.rateLimitPerMinute,
    };
    const result = await this.bus.send(new ConfigureApiSettingsCommand(next, actorOf(operator)));
    this.applyToGateway(next);
    return { success: true, changed: result.changed, ...(await this.view()) };
  }

  /** Stored settings, or (before the first save) what this process runs with. */
  private effective(state: ApiSettingsState): ApiSettingsInput {
    if (state.stored) return state.stored;
    return {
      testAuthEnabled: this.live?.testAuthEnabled ?? false,
      paymentPageUrl: this.live?.paymentPageUrl ?? '',
      depositTtlMinutes: state.depositTtlMinutes,
      callbackRetryScheduleSeconds: [...DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS],
      rateLimitPerMinute: this.live?.rateLimitPerMinute ?? 0,
    };
  }

  private present(values: ApiSettingsInput, state: ApiSettingsState): PanelApiSettings {
    const notes: string[] = [];
    if (this.live?.environment === 'development') notes.push('NODE_ENV=development keeps /test-auth open');
    if (this.startupRateLimit !== undefined && values.rateLimitPerMinute !== this.startupRateLimit) {
      notes.push(
        `the running rate limiter keeps ${this.startupRateLimit} requests per minute (RATE_LIMIT_PER_MINUTE); ` +
          'the stored value is not applied live yet',
      );
    }
    return {
      ...apiSettingsWire(values),
      stored: state.stored !== null,
      updatedAt: state.updatedAt,
      updatedBy: state.updatedBy,
      notes,
    };
  }

  private applyToGateway(values: ApiSettingsInput): void {
    if (!this.live) return;
    this.live.testAuthEnabled = values.testAuthEnabled;
    if (values.paymentPageUrl) this.live.paymentPageUrl = values.paymentPageUrl;
    // Kept for readers of the object; the registered limiter does not re-read it (see above).
    this.live.rateLimitPerMinute = values.rateLimitPerMinute;
  }
}
