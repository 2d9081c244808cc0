import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { ProviderDirectoryChanged } from '@transfergate/contracts';
import { WebhookDirectory } from './webhook-directory.js';

/**
 * Drops the cached infrastructures and provider ids when the ledger projection changes them: in
 * this process (embedded), or heard from the ledger's process (distributed mode, ProcessNoticesBridge).
 */
@EventsHandler(ProviderDirectoryChanged)
export class ForgetWebhookDirectoryHandler implements IEventHandler<ProviderDirectoryChanged> {
  constructor(private readonly directory: WebhookDirectory) {}

  handle(): void {
    this.directory.forgetAll();
  }
}
