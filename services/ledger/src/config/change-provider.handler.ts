import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ChangeProviderCommand, type ConfigResult } from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { SecretBox } from '@transfergate/security';
import { changeProviderInputRefusal, decideChangeProvider } from '../decisions/change-provider.decide.js';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { infrastructureExists, loadDecideAppend, loadMerchant, loadProvider } from './record-streams.js';

@CommandHandler(ChangeProviderCommand)
export class ChangeProviderHandler implements ICommandHandler<ChangeProviderCommand, ConfigResult> {
  private readonly box: SecretBox;
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(LEDGER_SETTINGS) settings: LedgerSettings,
  ) {
    this.box = new SecretBox(settings.secretKey);
  }

  async execute(command: ChangeProviderCommand): Promise<ConfigResult> {
    const invalid = changeProviderInputRefusal(command);
    if (invalid) throw invalid;
    const { change } = command;
    // The merchant and infrastructure it names are checked once, before the provider's own loop.
    const named = {
      ...(change.merchantId !== undefined ? { merchant: await loadMerchant(this.store, change.merchantId) } : {}),
      ...(change.infrastructureId !== undefined
        ? { infrastructureExists: await infrastructureExists(this.store, change.infrastructureId) }
        : {}),
    };
    // Sealed once: a retry after a lost race keeps the same ciphertext.
    const sealedSecret = change.apiSecret === undefined ? undefined : this.box.seal(change.apiSecret);
    return loadDecideAppend(this.repository, command.actor, async () =>
      decideChangeProvider(
        command,
        { ...named, provider: await loadProvider(this.store, command.providerId) },
        { sealedSecret },
      ),
    );
  }
}
