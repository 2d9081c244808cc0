import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordSignInCommand, type SignInOutcome } from '@transfergate/contracts';
import type { RequestOrigin } from '@transfergate/runtime/http';

/**
 * Sign-in steps go to the audit log (the password step and the authenticator-code step). A failure to
 * record one is logged, never turned into a failed sign-in: the throttle has already counted the attempt.
 */
@Injectable()
export class SignInAudit {
  private readonly logger = new Logger(SignInAudit.name);

  constructor(private readonly commands: CommandBus) {}

  async record(
    outcome: SignInOutcome,
    username: string,
    operatorId: string | undefined,
    origin: RequestOrigin,
    secondFactorRequired = false,
  ): Promise<void> {
    try {
      await this.commands.execute(
        new RecordSignInCommand(outcome, username, operatorId, secondFactorRequired, {
          source: 'panel',
          ...(operatorId ? { operatorId } : {}),
          ip: origin.ip,
          requestId: origin.requestId,
        }),
      );
    } catch (error) {
      this.logger.warn(`could not record a sign-in step in the audit log: ${String(error)}`);
    }
  }
}
