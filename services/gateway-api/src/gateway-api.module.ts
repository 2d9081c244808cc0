import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ProviderAuthService } from './auth/provider-auth.service.js';
import { FormErrorFilter } from './errors/form-error.filter.js';
import { H2hDepositController } from './h2h/h2h-deposit.controller.js';
import { HealthController } from './health/health.controller.js';
import { StatusController } from './status/status.controller.js';

/** Merchant-facing HTTP: validates and authenticates, then sends commands to the ledger. */
@Module({
  imports: [CqrsModule],
  controllers: [HealthController, H2hDepositController, StatusController],
  providers: [ProviderAuthService, { provide: APP_FILTER, useClass: FormErrorFilter }],
})
export class GatewayApiModule {}
