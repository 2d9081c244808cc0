import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { DepositExpirySweeper } from './commands/deposit-expiry.sweeper.js';
import { RequestDepositHandler } from './commands/request-deposit.handler.js';
import { RequestWithdrawalHandler } from './commands/request-withdrawal.handler.js';
import { MerchantRules } from './commands/merchant-rules.js';
import { ReceivingAccountSelector } from './commands/receiving-account.selector.js';
import { ApproveTransactionHandler } from './commands/approve-transaction.handler.js';
import { AssignTransactionHandler } from './commands/assign-transaction.handler.js';
import { ChangeAmountHandler } from './commands/change-amount.handler.js';
import { DecideAmountChangeHandler } from './commands/decide-amount-change.handler.js';
import { ExpireTransactionHandler } from './commands/expire-transaction.handler.js';
import { RecordWebhookAmountMismatchHandler } from './commands/record-webhook-amount-mismatch.handler.js';
import { RejectTransactionHandler } from './commands/reject-transaction.handler.js';
import { ReportPaymentHandler } from './commands/report-payment.handler.js';
import {
  ConfigureBankAccountHandler,
  ConfigureInfrastructureHandler,
  ConfigureMerchantHandler,
  ConfigureOperatorHandler,
  ConfigureProviderHandler,
} from './config/configure.handlers.js';
import {
  ChangeOperatorPasswordHandler,
  ConfigureRoleHandler,
  DeleteRoleHandler,
  SetOperatorTwoFactorHandler,
} from './config/operator-security.handlers.js';
import { LedgerRepository } from './persistence/ledger-repository.js';
import { FindProviderByApiKeyHandler } from './queries/find-provider.handler.js';
import { FindTransactionHandler } from './queries/find-transaction.handler.js';
import { FindTransactionByPaymentTokenHandler, ListBanksHandler } from './queries/payment-page.handlers.js';
import { PANEL_TRANSACTION_QUERY_HANDLERS } from './queries/panel-transactions.handlers.js';
import { PanelDashboardHandler } from './queries/panel-dashboard.handler.js';
import { EngineFeedsRunner } from './engines/engine-feeds.runner.js';
import { LedgerProjectionRunner } from './read-models/projection.runner.js';
import { ANSWERED_DEPOSITS } from './ports/answered-deposits.js';
import { DEPOSIT_CONTEXTS } from './ports/deposit-contexts.js';
import { READ_YOUR_WRITES } from './ports/read-your-writes.js';
import { RECORDS_COMMAND_HANDLERS } from './config/records-commands.js';
import { SETTINGS_LEDGER_PROVIDERS } from './config/settings-api.handlers.js';
import { RECORDS_QUERY_HANDLERS } from './queries/records-queries.handlers.js';
import { DashboardHandler } from './queries/records-dashboard.handler.js';
import { GetApiSettingsHandler } from './queries/settings-api.handler.js';
import { AuditLogHandler } from './queries/audit-log.handler.js';
import { GetMerchantStatementHandler } from './queries/statement/statement.handler.js';
import { RECONCILIATION_LEDGER_PROVIDERS } from './reconciliation/reconciliation.feature.js';
import { RISK_LEDGER_PROVIDERS } from './risk/risk.handlers.js';

/**
 * The ledger service: owns every aggregate and command handler, is the only writer of events, and
 * projects the read models. Needs SQL_DATABASE, EVENT_STORE and LEDGER_SETTINGS from the runtime.
 */
@Module({
  imports: [CqrsModule],
  providers: [
    LedgerRepository,
    ReceivingAccountSelector,
    MerchantRules,
    LedgerProjectionRunner,
    // KURRENTDB_URL / MONGODB_URL: the engines fed from the store of record (engines/).
    EngineFeedsRunner,
    // The read side's ports, which the write side calls (ports/answered-deposits.ts: the deposit's hot path).
    { provide: ANSWERED_DEPOSITS, useExisting: LedgerProjectionRunner },
    { provide: DEPOSIT_CONTEXTS, useExisting: LedgerProjectionRunner },
    { provide: READ_YOUR_WRITES, useExisting: LedgerProjectionRunner },
    DepositExpirySweeper,
    RequestDepositHandler,
    RequestWithdrawalHandler,
    ApproveTransactionHandler,
    RejectTransactionHandler,
    ReportPaymentHandler,
    AssignTransactionHandler,
    ChangeAmountHandler,
    DecideAmountChangeHandler,
    ExpireTransactionHandler,
    RecordWebhookAmountMismatchHandler,
    ConfigureInfrastructureHandler,
    ConfigureMerchantHandler,
    ConfigureProviderHandler,
    ConfigureBankAccountHandler,
    ConfigureOperatorHandler,
    ChangeOperatorPasswordHandler,
    SetOperatorTwoFactorHandler,
    ConfigureRoleHandler,
    DeleteRoleHandler,
    FindProviderByApiKeyHandler,
    FindTransactionHandler,
    FindTransactionByPaymentTokenHandler,
    ListBanksHandler,
    ...RECORDS_COMMAND_HANDLERS,
    ...RECORDS_QUERY_HANDLERS,
    ...SETTINGS_LEDGER_PROVIDERS,
    GetApiSettingsHandler,
    ...RECONCILIATION_LEDGER_PROVIDERS,
    ...RISK_LEDGER_PROVIDERS,
    DashboardHandler,
    AuditLogHandler,
    ...PANEL_TRANSACTION_QUERY_HANDLERS,
    PanelDashboardHandler,
    GetMerchantStatementHandler,
  ],
  exports: [LedgerProjectionRunner, DepositExpirySweeper],
})
export class LedgerModule {}
