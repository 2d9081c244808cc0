import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { RecordCallbackRecoveryCommand } from '@transfergate/contracts';
import { orThrow } from '../decisions/decision.js';
import { decideRecordCallbackRecovery } from '../decisions/record-callback-recovery.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';

/** Records a merchant's callback recovery (the audit entry) before the panel resends its callbacks. */
@CommandHandler(RecordCallbackRecoveryCommand)
export class RecordCallbackRecoveryHandler implements ICommandHandler<RecordCallbackRecoveryCommand, void> {
  constructor(private readonly repository: LedgerRepository) {}

  async execute(command: RecordCallbackRecoveryCommand): Promise<void> {
    const writes = orThrow(decideRecordCallbackRecovery(command));
    if (writes.length > 0) await this.repository.append(writes, command.actor);
  }
}
