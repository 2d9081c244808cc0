import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApproveTransactionCommand,
  DomainError,
  RejectTransactionCommand,
  type ProviderCredentials,
  type SandboxAction,
  type SandboxActionRequest,
  type StatusResponse,
} from '@transfergate/contracts';
import { TransactionRequestsService } from '../requests/transaction-requests.service.js';
import type { RequestOrigin } from '@transfergate/runtime/http';

/** The reason a sandbox rejection carries when the integrator gives none. */
export const DEFAULT_SANDBOX_REJECT_REASON = 'rejected in the sandbox';

/**
 * Sandbox decisions go through the same ledger commands as an operator's, so the transaction, the
 * balances and the callback are exactly what production does; only who decides differs (the actor is
 * `sandbox` with the provider, in the transaction's history). Refused unless the provider is a
 * sandbox provider, and only for that provider's own transactions (the lookup is per provider).
 */
@Injectable()
export class SandboxService {
  constructor(
    private readonly commands: CommandBus,
    private readonly requests: TransactionRequestsService,
  ) {}

  async decide(
    provider: ProviderCredentials,
    action: SandboxAction,
    identifier: string,
    input: SandboxActionRequest,
    origin: RequestOrigin,
  ): Promise<StatusResponse> {
    if (!provider.sandbox) {
      throw new DomainError(
        'sandbox_only',
        'this provider is not a sandbox provider: its transactions are decided by operators (an admin sets sandbox on test providers)',
      );
    }
    const found = await this.requests.status(provider, identifier, input.by);
    // Who decided, in the transaction's history: the sandbox (the API), from the caller's address.
    const actor = { source: 'sandbox', ip: origin.ip, requestId: origin.requestId };
    if (action === 'approve') {
      await this.commands.execute(new ApproveTransactionCommand({ transactionId: found.uuid, actor }));
    } else {
      const reason = input.reason ?? DEFAULT_SANDBOX_REJECT_REASON;
      await this.commands.execute(new RejectTransactionCommand({ transactionId: found.uuid, reason, actor }));
    }
    return this.requests.status(provider, found.uuid, 'uuid');
  }
}
