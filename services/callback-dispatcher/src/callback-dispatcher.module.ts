import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CallbackDispatcherRunner } from './callback-dispatcher.runner.js';
import { CALLBACK_LOG_HANDLERS } from './panel/callback-log.handlers.js';

/**
 * The callback-dispatcher service: consumes TransactionApproved / TransactionRejected and delivers
 * one signed callback per final transaction to the infrastructure's registered URL, with retries
 * from the database (see CallbackDispatcherRunner), and answers the panel's callback-log queries and
 * resends. Needs SQL_DATABASE, EVENT_STORE and CALLBACK_SETTINGS from the runtime.
 */
@Module({
  imports: [CqrsModule],
  providers: [CallbackDispatcherRunner, ...CALLBACK_LOG_HANDLERS],
})
export class CallbackDispatcherModule {}
