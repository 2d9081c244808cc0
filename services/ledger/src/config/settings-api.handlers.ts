import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isDeepStrictEqual } from 'node:util';
import {
  ConfigureApiSettingsCommand,
  DomainError,
  EVENT_CATALOG,
  STREAMS,
  domainEvent,
  explicitApiSettings,
  type ApiSettingsInput,
  type ConfigResult,
} from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';

/** The last stored API settings (stream `settings-api`) and the stream version, read from the store. */
export async function loadApiSettings(store: PostgresEventStore) {
  const events = await store.readStream(STREAMS.apiSettings());
  const last = events[events.length - 1];
  if (!last) return undefined;
  return {
    settings: EVENT_CATALOG.ApiSettingsConfigured.schema.parse(last.data) as ApiSettingsInput,
    version: last.streamVersion,
    at: last.createdAt,
    by: typeof last.metadata.actor === 'string' ? last.metadata.actor : null,
  };
}

/**
 * Stores the whole API settings set (appended only when it differs) and applies what the ledger
 * decides with: the deposit TTL of deposits requested from now on. The gateway's settings are
 * applied by the panel; the callback retry schedule is for the callback dispatcher (issue #5), which
 * reads it from this stream or rm_settings.
 */
@CommandHandler(ConfigureApiSettingsCommand)
export class ConfigureApiSettingsHandler implements ICommandHandler<ConfigureApiSettingsCommand, ConfigResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(LEDGER_SETTINGS) private readonly settings: LedgerSettings,
  ) {}

  async execute({ input, actor }: ConfigureApiSettingsCommand): Promise<ConfigResult> {
    const parsed = EVENT_CATALOG.ApiSettingsConfigured.schema.safeParse(input);
    if (!parsed.success) {
      throw new DomainError(
        'validation_failed',
        `invalid API settings: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
      );
    }
    const next = parsed.data;
    const current = await loadApiSettings(this.store);
    let changed = false;
    if (!current || !isDeepStrictEqual(current.settings, next)) {
      // A concurrent save surfaces as WrongExpectedVersionError: the panel answers 409.
      await this.repository.append(
        [
          {
            streamId: STREAMS.apiSettings(),
            expectedVersion: current ? current.version : 'no_stream',
            events: [domainEvent('ApiSettingsConfigured', next)],
          },
        ],
        actor,
      );
      changed = true;
    }
    applyToLedger(this.settings, next);
    return { id: 'api', changed };
  }
}

/** The deposit TTL, when an operator has set it; otherwise the ledger keeps its configuration's. */
function applyToLedger(settings: LedgerSettings, stored: ApiSettingsInput): void {
  const { depositTtlMinutes } = explicitApiSettings(stored);
  if (depositTtlMinutes !== undefined) settings.depositTtlMs = depositTtlMinutes * 60_000;
}

/** At start-up, stored settings win over the runtime configuration (environment) they started from. */
@Injectable()
export class LedgerApiSettingsApplier implements OnApplicationBootstrap {
  private readonly logger = new Logger('ApiSettings');
  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(LEDGER_SETTINGS) private readonly settings: LedgerSettings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const current = await loadApiSettings(this.store);
    if (!current) return;
    applyToLedger(this.settings, current.settings);
    const { depositTtlMinutes } = explicitApiSettings(current.settings);
    if (depositTtlMinutes !== undefined) {
      this.logger.log(`deposit TTL ${depositTtlMinutes} min from the stored API settings`);
    }
  }
}

export const SETTINGS_LEDGER_PROVIDERS = [ConfigureApiSettingsHandler, LedgerApiSettingsApplier];
