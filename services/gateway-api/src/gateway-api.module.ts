import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ProviderAuthService } from './auth/provider-auth.service.js';
import { ForgetCachedProvidersHandler } from './auth/forget-cached-providers.handler.js';
import { FormErrorFilter } from '@transfergate/runtime/http';
import { H2hDepositController } from './h2h/h2h-deposit.controller.js';
import { HealthController } from './health/health.controller.js';
import { StatusController } from './status/status.controller.js';
import { SandboxController } from './sandbox/sandbox.controller.js';
import { SandboxService } from './sandbox/sandbox.service.js';
import { H2hWithdrawalController } from './h2h/h2h-withdrawal.controller.js';
import { MerchantController } from './merchant/merchant.controller.js';
import { InfrastructureController } from './infrastructure/infrastructure.controller.js';
import { BanksController } from './banks/banks.controller.js';
import { TestAuthController } from './test-auth/test-auth.controller.js';
import { ModuleHealthController } from './health/module-health.controller.js';
import { TransactionRequestsService } from './requests/transaction-requests.service.js';
import { H2hCallerService } from './h2h/h2h-caller.js';
import { PaymentPageController } from './payment-page/payment-page.controller.js';
import { DocsController } from './docs/docs.controller.js';

/** Merchant-facing HTTP: validates and authenticates, then sends commands to the ledger. */
@Module({
  imports: [CqrsModule],
  controllers: [
    HealthController,
    ModuleHealthController,
    H2hDepositController,
    H2hWithdrawalController,
    MerchantController,
    InfrastructureController,
    StatusController,
    SandboxController,
    BanksController,
    TestAuthController,
    PaymentPageController,
    DocsController,
  ],
  providers: [
    ProviderAuthService,
    ForgetCachedProvidersHandler,
    TransactionRequestsService,
    SandboxService,
    H2hCallerService,
    { provide: APP_FILTER, useClass: FormErrorFilter },
  ],
})
export class GatewayApiModule {}
