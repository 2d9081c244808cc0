import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UpdateOperatorCommand, type ConfigResult } from '@transfergate/contracts';
import { EVENT_STORE, type PostgresEventStore } from '@transfergate/event-store';
import { hashPassword } from '@transfergate/security';
import { decideUpdateOperator, updateOperatorInputRefusal } from '../decisions/update-operator.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { loadDecideAppend, loadOperator } from './record-streams.js';

@CommandHandler(UpdateOperatorCommand)
export class UpdateOperatorHandler implements ICommandHandler<UpdateOperatorCommand, ConfigResult> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  async execute(command: UpdateOperatorCommand): Promise<ConfigResult> {
    const invalid = updateOperatorInputRefusal(command);
    if (invalid) throw invalid;
    const { password } = command.change;
    // Hashed once (scrypt is slow on purpose); a retry after a lost race reuses the hash.
    const passwordHash = password === undefined ? undefined : await hashPassword(password);
    return loadDecideAppend(this.repository, command.actor, async () =>
      decideUpdateOperator(command, await loadOperator(this.store, command.operatorId), { passwordHash }),
    );
  }
}
