import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ApproveTransactionCommand, type TransactionView } from '@transfergate/contracts';
import { decideApprove } from '../decisions/approve-transaction.decide.js';
import type { SettlementContext } from '../decisions/settle-transaction.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { MerchantRules } from './merchant-rules.js';
import { runTransition } from './transition.js';

@CommandHandler(ApproveTransactionCommand)
export class ApproveTransactionHandler implements ICommandHandler<ApproveTransactionCommand, TransactionView> {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly rules: MerchantRules,
  ) {}

  execute({ input }: ApproveTransactionCommand): Promise<TransactionView> {
    return runTransition(
      this.repository,
      input.transactionId,
      input.actor,
      (current) => this.settlementContext(current.view.type, current.view.merchantId, current.view.transactionId),
      (current, context) => decideApprove(input, current, context),
    );
  }

  /** A deposit's settlement needs the merchant's commission; a withdrawal's, its open reservation. */
  private async settlementContext(
    type: TransactionView['type'],
    merchantId: string,
    transactionId: string,
  ): Promise<SettlementContext> {
    if (type === 'deposit') return { merchant: await this.rules.of(merchantId), reservation: undefined };
    const ledger = await this.repository.loadMerchantLedger(merchantId, transactionId);
    return { merchant: undefined, reservation: ledger.reservation };
  }
}
