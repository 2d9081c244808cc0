import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  EndProviderSecretOverlapCommand,
  RotateProviderSecretCommand,
  type ConfigResult,
} from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { SecretBox } from '@transfergate/security';
import {
  decideEndProviderSecretOverlap,
  decideRotateProviderSecret,
} from '../decisions/rotate-provider-secret.decide.js';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { loadDecideAppend, loadProvider } from './record-streams.js';

/**
 * A provider's secret rotation with an overlap window: load the provider, decide, append. The new
 * secret is sealed once, so a retry after a lost race appends the same ciphertext; the window's end
 * is computed from the time of each decision.
 */
@CommandHandler(RotateProviderSecretCommand)
export class RotateProviderSecretHandler implements ICommandHandler<RotateProviderSecretCommand, ConfigResult> {
  private readonly box: SecretBox;
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(LEDGER_SETTINGS) settings: LedgerSettings,
  ) {
    this.box = new SecretBox(settings.secretKey);
  }

  async execute(command: RotateProviderSecretCommand): Promise<ConfigResult> {
    const sealedSecret = this.box.seal(command.apiSecret);
    return loadDecideAppend(this.repository, command.actor, async () =>
      decideRotateProviderSecret(command, await loadProvider(this.store, command.providerId), {
        sealedSecret,
        nowMs: Date.now(),
      }),
    );
  }
}

/** Ends a rotation's overlap window before its time. */
@CommandHandler(EndProviderSecretOverlapCommand)
export class EndProviderSecretOverlapHandler implements ICommandHandler<EndProviderSecretOverlapCommand, ConfigResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  async execute(command: EndProviderSecretOverlapCommand): Promise<ConfigResult> {
    return loadDecideAppend(this.repository, command.actor, async () =>
      decideEndProviderSecretOverlap(command, await loadProvider(this.store, command.providerId), {
        nowMs: Date.now(),
      }),
    );
  }
}
