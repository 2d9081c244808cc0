import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeleteMerchantCommand, type ConfigResult } from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { decideDeleteMerchant } from '../decisions/delete-merchant.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { loadDecideAppend, loadMerchant } from './record-streams.js';

@CommandHandler(DeleteMerchantCommand)
export class DeleteMerchantHandler implements ICommandHandler<DeleteMerchantCommand, ConfigResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  execute(command: DeleteMerchantCommand): Promise<ConfigResult> {
    return loadDecideAppend(this.repository, command.actor, async () =>
      decideDeleteMerchant(command, await loadMerchant(this.store, command.merchantId)),
    );
  }
}
