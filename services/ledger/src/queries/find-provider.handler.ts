import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EVENT_CATALOG, FindProviderByApiKeyQuery, type ProviderCredentials } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { LEDGER_SETTINGS, type LedgerSettings } from '../ledger.settings.js';
import { SecretBox } from '@transfergate/security';

/**
 * Provider, its merchant and infrastructure by API key, with the secret (and a rotation's previous
 * one, with its window's end) unsealed for the check.
 */
@QueryHandler(FindProviderByApiKeyQuery)
export class FindProviderByApiKeyHandler implements IQueryHandler<
  FindProviderByApiKeyQuery,
  ProviderCredentials | null
> {
  private readonly box: SecretBox;
  constructor(
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Inject(LEDGER_SETTINGS) settings: LedgerSettings,
  ) {
    this.box = new SecretBox(settings.secretKey);
  }

  async execute({ apiKey }: FindProviderByApiKeyQuery): Promise<ProviderCredentials | null> {
    const { rows } = await this.db.query<{ provider: unknown; merchant: unknown; infrastructure: unknown }>(
      `select p.record provider, m.record merchant, i.record infrastructure
       from rm_providers p
       join rm_merchants m on m.merchant_id = p.merchant_id
       join rm_infrastructures i on i.infrastructure_id = p.record->>'infrastructureId'
       where p.api_key = $1`,
      [apiKey],
    );
    const row = rows[0];
    if (!row) return null;
    const provider = EVENT_CATALOG.ProviderConfigured.schema.parse(row.provider);
    const merchant = EVENT_CATALOG.MerchantConfigured.schema.parse(row.merchant);
    const infrastructure = EVENT_CATALOG.InfrastructureConfigured.schema.parse(row.infrastructure);
    return {
      providerId: provider.providerId,
      number: provider.number,
      name: provider.name,
      apiKey: provider.apiKey,
      apiSecret: this.box.open(provider.apiSecretSealed),
      // The gateway checks the window's end on every request (the answer is cached for seconds).
      ...(provider.previousApiSecretSealed !== undefined && provider.previousApiSecretUntil !== undefined
        ? {
            previousApiSecret: this.box.open(provider.previousApiSecretSealed),
            previousApiSecretUntil: provider.previousApiSecretUntil,
          }
        : {}),
      apiAllowedIps: provider.apiAllowedIps,
      active: provider.active,
      merchantId: merchant.merchantId,
      merchantActive: merchant.active,
      infrastructureId: infrastructure.infrastructureId,
      apiForm: infrastructure.apiForm,
      // The merchant's own URLs, where it set them, else the infrastructure's.
      callbackDeposit: provider.callbackDeposit ?? infrastructure.callbackDeposit,
      callbackWithdrawal: provider.callbackWithdrawal ?? infrastructure.callbackWithdrawal,
      ...(provider.sandbox ? { sandbox: true } : {}),
    };
  }
}
