import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { AuthController } from './auth/auth.controller.js';
import { LoginThrottle } from './auth/login-throttle.service.js';
import { OperatorDirectory } from './auth/operator-directory.service.js';
import { PanelAuthGuard } from './auth/panel-auth.guard.js';
import { PANEL_AUTH_SCHEMA } from './auth/schema.js';
import { SecondFactor } from './auth/second-factor.js';
import { SessionTokens } from './auth/session-tokens.service.js';
import { TotpService } from './auth/totp.service.js';
import { TwoFactorController } from './auth/two-factor.controller.js';
import { TwoFactorService } from './auth/two-factor.service.js';
import { SignInAudit } from './auth/sign-in-audit.service.js';
import { TRANSACTION_CONTROLLERS, TRANSACTION_PROVIDERS } from './transactions/transactions.feature.js';
import { BACK_OFFICE_CONTROLLERS, BACK_OFFICE_PROVIDERS } from './records/back-office.feature.js';
import { CallbacksController } from './callbacks/callbacks.controller.js';
import { WebhookLogController } from './webhooks/webhook-log.controller.js';
import { PanelDashboardController } from './dashboard/panel-dashboard.controller.js';
import { StatementsController } from './statements/statements.controller.js';
import { StatementsService } from './statements/statements.service.js';
import { ReconciliationController } from './reconciliation/reconciliation.controller.js';
import { ReconciliationService } from './reconciliation/reconciliation.service.js';
import { StatementUploadParser } from './reconciliation/statement-upload.parser.js';
import { RiskController } from './risk/risk.controller.js';
import { PORTAL_CONTROLLERS, PORTAL_PROVIDERS } from './portal/portal.feature.js';

/**
 * The operator side: auth (JWT + refresh rotation, 2FA), RBAC, back-office records and the
 * approval actions, each action one command to the ledger; and the merchant portal (/portal/…). Needs SQL_DATABASE and PANEL_SETTINGS.
 */
@Module({
  imports: [CqrsModule],
  controllers: [
    AuthController,
    TwoFactorController,
    ...TRANSACTION_CONTROLLERS,
    ...BACK_OFFICE_CONTROLLERS,
    CallbacksController,
    WebhookLogController,
    PanelDashboardController,
    StatementsController,
    ReconciliationController,
    RiskController,
    ...PORTAL_CONTROLLERS,
  ],
  providers: [
    OperatorDirectory,
    LoginThrottle,
    SessionTokens,
    SecondFactor,
    PanelAuthGuard,
    TotpService,
    TwoFactorService,
    SignInAudit,
    ...TRANSACTION_PROVIDERS,
    ...BACK_OFFICE_PROVIDERS,
    StatementsService,
    ReconciliationService,
    StatementUploadParser,
    ...PORTAL_PROVIDERS,
  ],
  exports: [PanelAuthGuard, OperatorDirectory, SessionTokens],
})
export class PanelApiModule implements OnModuleInit {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async onModuleInit(): Promise<void> {
    await this.db.exec(PANEL_AUTH_SCHEMA);
  }
}
