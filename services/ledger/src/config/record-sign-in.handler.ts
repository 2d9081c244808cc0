import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { RecordSignInCommand } from '@transfergate/contracts';
import { decideRecordSignIn } from '../decisions/record-sign-in.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';

/** A sign-in step for the audit log (decideRecordSignIn). */
@CommandHandler(RecordSignInCommand)
export class RecordSignInHandler implements ICommandHandler<RecordSignInCommand, void> {
  constructor(private readonly repository: LedgerRepository) {}

  async execute(command: RecordSignInCommand): Promise<void> {
    await this.repository.append(decideRecordSignIn(command), command.actor);
  }
}
