import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UpdateMerchantProvidersCommand, type MerchantProvidersResult } from '@transfergate/contracts';
import { EVENT_STORE, SQL_DATABASE, type PostgresEventStore, type SqlDatabase } from '@transfergate/event-store';
import type { ProviderRecord, RecordState } from '../decisions/record-state.js';
import { decideUpdateMerchantProviders } from '../decisions/update-merchant-providers.decide.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { loadDecideAppend, loadMerchant, loadProvider } from './record-streams.js';

@CommandHandler(UpdateMerchantProvidersCommand)
export class UpdateMerchantProvidersHandler implements ICommandHandler<
  UpdateMerchantProvidersCommand,
  MerchantProvidersResult
> {
  constructor(
    private readonly repository: LedgerRepository,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  execute(command: UpdateMerchantProvidersCommand): Promise<MerchantProvidersResult> {
    return loadDecideAppend(this.repository, command.actor, async () => {
      const merchant = await loadMerchant(this.store, command.merchantId);
      const providers = new Map<string, RecordState<ProviderRecord> | undefined>();
      if (merchant && !merchant.deleted) {
        // The merchant's providers now (the read model finds them); each is read from its stream.
        const { rows } = await this.db.query<{ provider_id: string }>(
          'select provider_id from rm_providers where merchant_id = $1',
          [command.merchantId],
        );
        for (const providerId of new Set([...command.providerIds, ...rows.map((r) => r.provider_id)])) {
          providers.set(providerId, await loadProvider(this.store, providerId));
        }
      }
      return decideUpdateMerchantProviders(command, { merchant, providers });
    });
  }
}
