import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeleteProviderCommand, type ConfigResult } from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { decideDeleteProvider } from '../decisions/delete-provider.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { loadDecideAppend, loadProvider } from './record-streams.js';

@CommandHandler(DeleteProviderCommand)
export class DeleteProviderHandler implements ICommandHandler<DeleteProviderCommand, ConfigResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  execute(command: DeleteProviderCommand): Promise<ConfigResult> {
    return loadDecideAppend(this.repository, command.actor, async () =>
      decideDeleteProvider(command, await loadProvider(this.store, command.providerId)),
    );
  }
}
