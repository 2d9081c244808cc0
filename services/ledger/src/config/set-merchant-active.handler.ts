import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SetMerchantActiveCommand, type MerchantActiveResult } from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { decideSetMerchantActive } from '../decisions/set-merchant-active.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { loadDecideAppend, loadMerchant } from './record-streams.js';

@CommandHandler(SetMerchantActiveCommand)
export class SetMerchantActiveHandler implements ICommandHandler<SetMerchantActiveCommand, MerchantActiveResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  execute(command: SetMerchantActiveCommand): Promise<MerchantActiveResult> {
    return loadDecideAppend(this.repository, command.actor, async () =>
      decideSetMerchantActive(command, await loadMerchant(this.store, command.merchantId)),
    );
  }
}
