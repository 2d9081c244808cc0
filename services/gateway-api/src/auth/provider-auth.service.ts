import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { timingSafeEqual } from 'node:crypto';
import {
  DomainError,
  FindProviderByApiKeyQuery,
  isDomainError,
  digestsEqual,
  secretsInForce,
  type ProviderCredentials,
} from '@transfergate/contracts';
import { ReadThroughCache, type ReadThroughCacheLimits } from '@transfergate/runtime/caching';
import { ipAllowed } from '@transfergate/security';
import type { FastifyRequest } from 'fastify';
import { chargeFailed, chargeVerified, gateBeforeVerification } from '../rate-limit/provider-rate-limit.js';

/** Every request needs a provider record: held for at most 5 s, 10,000 keys, read again in its last second. */
const PROVIDER_CACHE_LIMITS: ReadThroughCacheLimits = { ttlMs: 5_000, maxEntries: 10_000, refreshAheadMs: 1_000 };
/** Signs for an unknown key, so refusing one costs what refusing a wrong signature costs. */
const UNKNOWN_KEY_SECRET = 'no-such-key';

/**
 * Authenticates gateway callers. Provider records are cached (bounded) because every request needs
 * one. Committed changes to providers, merchants and infrastructures drop the cache
 * (ProviderDirectoryChanged): where the ledger projection runs in this process (the embedded
 * default) before the change is answered, so a disabled provider or a rotated secret stops working
 * with the answer; in a gateway process of its own (distributed mode) when the broadcast notice
 * arrives, which the ledger sends before it answers but which arrives asynchronously (docs/security.md). The
 * cache's TTL bounds what a lost notice can cost (ReadThroughCache).
 */
@Injectable()
export class ProviderAuthService {
  /**
   * On PGlite a read queues behind the group append and the projection batch in flight: every key's
   * requests of that moment paid it (a p99 source), which the background refresh ahead avoids.
   */
  private readonly cache = new ReadThroughCache<ProviderCredentials | null>(PROVIDER_CACHE_LIMITS, (apiKey) =>
    this.queries.execute(new FindProviderByApiKeyQuery(apiKey)),
  );

  /** Forgets every cached record (a provider, merchant or infrastructure changed). */
  forgetAll(): void {
    this.cache.forgetAll();
  }

  constructor(private readonly queries: QueryBus) {}

  async byApiKey(apiKey: string | undefined): Promise<ProviderCredentials> {
    const provider = await this.findByApiKey(apiKey);
    if (!provider) throw new DomainError('invalid_credentials', 'invalid API credentials');
    return provider;
  }

  /**
   * Signature forms (H2H hash, Infrastructure SecurityKey): the signature is checked before anything
   * else about the key (active, IP allow-list, API form), and an unknown key fails exactly like a
   * wrong signature (the same `refusal`, after computing a signature with a stand-in secret), so no
   * answer tells a caller without the secret whether a key exists or how it is configured.
   */
  async verifySigned(
    caller: FastifyRequest,
    apiKey: string,
    presentedSignature: string,
    signatureOf: (apiSecret: string) => string,
    refusal: () => DomainError,
  ): Promise<ProviderCredentials> {
    gateBeforeVerification(caller);
    const provider = await this.findByApiKey(apiKey);
    const secrets = provider ? acceptedSecrets(provider) : [UNKNOWN_KEY_SECRET];
    // Every secret in force is tried (no early exit), so the answer's timing does not tell which matched.
    let matched = false;
    for (const secret of secrets) matched = digestsEqual(signatureOf(secret), presentedSignature) || matched;
    if (!provider || !matched) throw chargeFailed(caller, apiKey) ?? refusal();
    chargeVerified(caller, provider.apiKey);
    return provider;
  }

  private async findByApiKey(apiKey: string | undefined): Promise<ProviderCredentials | null> {
    if (!apiKey || apiKey.length > 256) return null;
    return this.cache.get(apiKey);
  }

  /**
   * Key + secret callers (status, Merchant API, test-auth): known key, matching secret, allowed IP,
   * active. Both checks charge the caller's budgets (provider-rate-limit.ts): a verified request its
   * key's quota, a failed one its IP's and the key's failures.
   */
  async authenticate(
    credentials: { apiKey?: string; apiSecret?: string },
    caller: FastifyRequest,
  ): Promise<ProviderCredentials> {
    gateBeforeVerification(caller);
    const clientIp = caller.ip;
    let provider: ProviderCredentials;
    try {
      provider = await this.byApiKey(credentials.apiKey);
      this.assertSecret(provider, credentials.apiSecret);
    } catch (error) {
      throw (isDomainError(error) && chargeFailed(caller, credentials.apiKey)) || error;
    }
    chargeVerified(caller, provider.apiKey);
    if (!provider.active) throw new DomainError('provider_disabled', 'provider is disabled');
    if (!provider.merchantActive) throw new DomainError('merchant_disabled', 'merchant is disabled');
    if (!ipAllowed(clientIp, provider.apiAllowedIps))
      throw new DomainError('ip_not_allowed', 'caller IP is not allowed for this provider');
    return provider;
  }

  /** Active provider and merchant, caller IP on the provider's allow-list, the right API form. */
  assertMayCall(provider: ProviderCredentials, clientIp: string, form: ProviderCredentials['apiForm']): void {
    if (!provider.active) throw new DomainError('provider_disabled', 'provider is disabled');
    if (!provider.merchantActive) throw new DomainError('merchant_disabled', 'merchant is disabled');
    if (!ipAllowed(clientIp, provider.apiAllowedIps))
      throw new DomainError('ip_not_allowed', 'caller IP is not allowed for this provider');
    if (provider.apiForm !== form) {
      throw new DomainError(
        'form_not_enabled',
        `this provider's infrastructure uses the ${provider.apiForm} API, not ${form}`,
      );
    }
  }

  /**
   * Secret comparison in constant time, against every secret in force (the current one, and during
   * a rotation's overlap window the one it replaced).
   */
  assertSecret(provider: ProviderCredentials, presented: string | undefined): void {
    const given = Buffer.from(presented ?? '', 'utf8');
    let matched = false;
    for (const secret of acceptedSecrets(provider)) {
      const expected = Buffer.from(secret, 'utf8');
      matched = (expected.length === given.length && timingSafeEqual(expected, given)) || matched;
    }
    if (!matched) throw new DomainError('invalid_credentials', 'invalid API credentials');
  }
}

/**
 * The secrets a provider's requests may be signed with now: its current secret, and the one a
 * rotation replaced until the overlap window ends (checked per request: the record is cached).
 */
export function acceptedSecrets(provider: ProviderCredentials, nowMs = Date.now()): string[] {
  return secretsInForce(
    {
      current: provider.apiSecret,
      previous: provider.previousApiSecret,
      previousUntil: provider.previousApiSecretUntil,
    },
    nowMs,
  );
}
