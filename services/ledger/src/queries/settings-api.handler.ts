import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { GetApiSettingsQuery, type ApiSettingsState } from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { loadApiSettings } from '../config/settings-api.handlers.js';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';

/** The stored API settings from their stream (read-your-writes, and usable before projections run). */
@QueryHandler(GetApiSettingsQuery)
export class GetApiSettingsHandler implements IQueryHandler<GetApiSettingsQuery, ApiSettingsState> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(LEDGER_SETTINGS) private readonly settings: LedgerSettings,
  ) {}

  async execute(): Promise<ApiSettingsState> {
    const current = await loadApiSettings(this.store);
    return {
      stored: current?.settings ?? null,
      updatedAt: current?.at ?? null,
      updatedBy: current?.by ?? null,
      depositTtlMinutes: Math.min(1440, Math.max(1, Math.round(this.settings.depositTtlMs / 60_000))),
    };
  }
}
