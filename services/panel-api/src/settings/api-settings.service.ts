import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  API_SETTING_KEYS,
  ConfigureApiSettingsCommand,
  explicitApiSettings,
  DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS,
  GetApiSettingsQuery,
  type ApiSettingsInput,
  type ApiSettingsRequest,
  type ApiSettingsState,
  type PanelApiSettings,
} from '@transfergate/contracts';
import { actorOf, type OperatorContext } from '../auth/decorators.js';
import { RecordBus } from '../records/record-commands.js';
import { PANEL_SETTINGS, type PanelSettings } from '../panel.settings.js';
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
 * by the ledger). Each setting an operator has set (the event's `explicitKeys`) wins; every other
 * one is the runtime configuration (environment) the process runs with, and stays so when another
 * setting is saved: GET shows what runs, a save changes only the keys it names.
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
    @Inject(PANEL_SETTINGS) private readonly panelSettings: PanelSettings,
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
      this.applyToGateway(this.effective(state));
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
    const set: Partial<Omit<ApiSettingsInput, 'explicitKeys'>> = {
      ...explicitApiSettings(state.stored),
      ...(input.testAuthEnabled !== undefined ? { testAuthEnabled: input.testAuthEnabled } : {}),
      ...((input.payment_page_url ?? input.paymentPageUrl) !== undefined
        ? { paymentPageUrl: (input.payment_page_url ?? input.paymentPageUrl)! }
        : {}),
      ...(input.depositTtlMinutes !== undefined ? { depositTtlMinutes: input.depositTtlMinutes } : {}),
      ...(input.callbackRetryScheduleSeconds !== undefined
        ? { callbackRetryScheduleSeconds: input.callbackRetryScheduleSeconds }
        : {}),
      ...(input.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: input.rateLimitPerMinute } : {}),
    };
    // The event carries a whole set: keys nobody set keep their previous stored value (or a valid
    // placeholder) and are marked as following the environment through `explicitKeys`.
    const placeholder = state.stored ?? {
      testAuthEnabled: false,
      paymentPageUrl: '',
      depositTtlMinutes: state.depositTtlMinutes,
      callbackRetryScheduleSeconds: [...DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS],
      rateLimitPerMinute: 0,
    };
    const next: ApiSettingsInput = {
      testAuthEnabled: set.testAuthEnabled ?? placeholder.testAuthEnabled,
      paymentPageUrl: set.paymentPageUrl ?? placeholder.paymentPageUrl,
      depositTtlMinutes: set.depositTtlMinutes ?? placeholder.depositTtlMinutes,
      callbackRetryScheduleSeconds: set.callbackRetryScheduleSeconds ?? placeholder.callbackRetryScheduleSeconds,
      rateLimitPerMinute: set.rateLimitPerMinute ?? placeholder.rateLimitPerMinute,
      explicitKeys: API_SETTING_KEYS.filter((key) => set[key] !== undefined),
    };
    const result = await this.bus.send(new ConfigureApiSettingsCommand(next, actorOf(operator)));
    const after = await this.queries.execute(new GetApiSettingsQuery());
    this.applyToGateway(this.effective(after));
    return { success: true, changed: result.changed, ...this.present(this.effective(after), after) };
  }

  /** What runs: each setting an operator has set, else this process's configuration. */
  private effective(state: ApiSettingsState): ApiSettingsInput {
    const set = explicitApiSettings(state.stored);
    // In a process that runs the gateway, its live object holds what runs for the keys nobody set
    // (their configuration: only operator-set values are ever written onto it).
    const runtime = {
      ...this.panelSettings.runtimeApiSettings,
      ...(this.live
        ? {
            testAuthEnabled: this.live.testAuthEnabled,
            paymentPageUrl: this.live.paymentPageUrl,
            rateLimitPerMinute: this.live.rateLimitPerMinute,
          }
        : {}),
    };
    return {
      testAuthEnabled: set.testAuthEnabled ?? runtime.testAuthEnabled,
      paymentPageUrl: set.paymentPageUrl ?? runtime.paymentPageUrl,
      // The ledger's own running value (its environment until an operator sets it).
      depositTtlMinutes: state.depositTtlMinutes,
      callbackRetryScheduleSeconds: set.callbackRetryScheduleSeconds ??
        runtime.callbackRetryScheduleMs?.map((ms) => ms / 1_000) ?? [...DEFAULT_CALLBACK_RETRY_SCHEDULE_SECONDS],
      rateLimitPerMinute: set.rateLimitPerMinute ?? runtime.rateLimitPerMinute,
      explicitKeys: API_SETTING_KEYS.filter((key) => set[key] !== undefined),
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
      setByOperator: (values.explicitKeys ?? []).map((key) => (key === 'paymentPageUrl' ? 'payment_page_url' : key)),
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
