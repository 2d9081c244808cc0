import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SetProviderCallbackUrlsCommand, type ConfigResult } from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { callbackUrlRefusal, egressPolicy, type EgressPolicy } from '@transfergate/security';
import { decideSetProviderCallbackUrls } from '../decisions/set-provider-callback-urls.decide.js';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { loadDecideAppend, loadProvider } from './record-streams.js';

/** A provider's own callback URLs, checked against the egress policy like an infrastructure's. */
@CommandHandler(SetProviderCallbackUrlsCommand)
export class SetProviderCallbackUrlsHandler implements ICommandHandler<SetProviderCallbackUrlsCommand, ConfigResult> {
  private readonly egress: EgressPolicy;
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(LEDGER_SETTINGS) settings: LedgerSettings,
  ) {
    this.egress = egressPolicy(settings.callbackAllowedTargets);
  }

  async execute(command: SetProviderCallbackUrlsCommand): Promise<ConfigResult> {
    return loadDecideAppend(this.repository, command.actor, async () =>
      decideSetProviderCallbackUrls(command, await loadProvider(this.store, command.providerId), {
        refusalOf: (url) => callbackUrlRefusal(url, this.egress),
      }),
    );
  }
}
