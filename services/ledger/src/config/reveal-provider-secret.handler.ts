import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { RevealProviderSecretCommand, type RevealedProviderSecret } from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { SecretBox } from '@transfergate/security';
import { orThrow } from '../decisions/decision.js';
import { decideRevealProviderSecret } from '../decisions/reveal-provider-secret.decide.js';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { loadProvider } from './record-streams.js';

/**
 * Unseals a provider secret for an operator who holds providers.reveal_secret. Every reveal is an
 * event (stream `provider-secret-access-<id>`, who and from where), so the audit log shows it.
 */
@CommandHandler(RevealProviderSecretCommand)
export class RevealProviderSecretHandler implements ICommandHandler<
  RevealProviderSecretCommand,
  RevealedProviderSecret
> {
  private readonly box: SecretBox;
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(LEDGER_SETTINGS) settings: LedgerSettings,
  ) {
    this.box = new SecretBox(settings.secretKey);
  }

  async execute(command: RevealProviderSecretCommand): Promise<RevealedProviderSecret> {
    const provider = await loadProvider(this.store, command.providerId);
    await this.repository.append(orThrow(decideRevealProviderSecret(command, provider)), command.actor);
    const { record } = provider!;
    return {
      providerId: command.providerId,
      name: record.name,
      apiKey: record.apiKey,
      apiSecret: this.box.open(record.apiSecretSealed),
    };
  }
}
