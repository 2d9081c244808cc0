import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InviteMerchantUserCommand, type ConfigResult } from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { hashPassword } from '@transfergate/security';
import { decideInviteMerchantUser } from '../decisions/invite-merchant-user.decide.js';
import { configIdFor } from '../persistence/ids.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { loadDecideAppend, loadMerchant, loadOperator } from './record-streams.js';

/** Creates a merchant user: load the merchant and the username's account, decide, append. */
@CommandHandler(InviteMerchantUserCommand)
export class InviteMerchantUserHandler implements ICommandHandler<InviteMerchantUserCommand, ConfigResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  async execute(command: InviteMerchantUserCommand): Promise<ConfigResult> {
    const { input } = command;
    // The account id is the one the username names, as for operators: one account per username.
    const operatorId = configIdFor.operator(input.username);
    const passwordHash = await hashPassword(input.password);
    return loadDecideAppend(this.repository, command.actor, async () =>
      decideInviteMerchantUser(
        command,
        {
          merchant: await loadMerchant(this.store, input.merchantId),
          existing: await loadOperator(this.store, operatorId),
        },
        { operatorId, passwordHash, passwordChars: input.password.length },
      ),
    );
  }
}
