import { Inject, Injectable } from '@nestjs/common';
import { EVENT_CATALOG } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { ReadThroughCache, type ReadThroughCacheLimits } from '@transfergate/runtime/caching';

/** What a webhook needs of the infrastructure its path names. */
export interface WebhookInfrastructure {
  infrastructureId: string;
  slug: string;
  webhookAllowedIps: string[];
}

/** Slugs (unknown ones too: an alias path misses its direct lookup every time) held for at most 5 s. */
const INFRASTRUCTURE_CACHE_LIMITS: ReadThroughCacheLimits = { ttlMs: 5_000, maxEntries: 1_000, refreshAheadMs: 1_000 };
/** One entry: the ids of every provider. */
const PROVIDER_IDS_CACHE_LIMITS: ReadThroughCacheLimits = { ttlMs: 5_000, maxEntries: 1, refreshAheadMs: 1_000 };
const EVERY_PROVIDER = '';

/**
 * The records every webhook reads before it can find its transaction: its infrastructure by slug
 * (the allow-list) and the ids of every provider (an external id's transaction ids). Cached like
 * the gateway's provider records and dropped by the same notice (ProviderDirectoryChanged): in the
 * embedded app before a change to a provider or an infrastructure is answered, in a webhook-ingest
 * process of its own when the broadcast arrives (docs/security.md). The TTL bounds a lost notice.
 */
@Injectable()
export class WebhookDirectory {
  private readonly infrastructures = new ReadThroughCache<WebhookInfrastructure | null>(
    INFRASTRUCTURE_CACHE_LIMITS,
    (slug) => this.readInfrastructure(slug),
  );
  private readonly providers = new ReadThroughCache<readonly string[]>(PROVIDER_IDS_CACHE_LIMITS, () =>
    this.readProviderIds(),
  );

  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  /** A provider or an infrastructure changed. */
  forgetAll(): void {
    this.infrastructures.forgetAll();
    this.providers.forgetAll();
  }

  infrastructureBySlug(slug: string): Promise<WebhookInfrastructure | null> {
    return this.infrastructures.get(slug);
  }

  providerIds(): Promise<readonly string[]> {
    return this.providers.get(EVERY_PROVIDER);
  }

  private async readInfrastructure(slug: string): Promise<WebhookInfrastructure | null> {
    const { rows } = await this.db.query<{ record: unknown }>('select record from rm_infrastructures where slug = $1', [
      slug,
    ]);
    if (!rows[0]) return null;
    const record = EVENT_CATALOG.InfrastructureConfigured.schema.parse(rows[0].record);
    return {
      infrastructureId: record.infrastructureId,
      slug: record.slug,
      webhookAllowedIps: record.webhookAllowedIps,
    };
  }

  private async readProviderIds(): Promise<readonly string[]> {
    const { rows } = await this.db.query<{ provider_id: string }>('select provider_id from rm_providers');
    return rows.map((row) => row.provider_id);
  }
}
