import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { ProviderDirectoryChanged } from '@transfergate/contracts';
import { ProviderAuthService } from './provider-auth.service.js';

/**
 * Drops the gateway's cached provider records when the ledger projection changes them: in this
 * process (embedded), or heard from the ledger's process (distributed mode, ProcessNoticesBridge).
 */
@EventsHandler(ProviderDirectoryChanged)
export class ForgetCachedProvidersHandler implements IEventHandler<ProviderDirectoryChanged> {
  constructor(private readonly auth: ProviderAuthService) {}

  handle(): void {
    this.auth.forgetAll();
  }
}
