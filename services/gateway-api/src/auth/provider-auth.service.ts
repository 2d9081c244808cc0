import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { timingSafeEqual } from 'node:crypto';
import {
  DomainError,
  FindProviderByApiKeyQuery,
  digestsEqual,
  type ProviderCredentials,
} from '@transfergate/contracts';
import { ipAllowed } from '@transfergate/security';

const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
/** The last part of an entry's life in which a request answers from it and reads it again in the background. */
const CACHE_REFRESH_AHEAD_MS = 1_000;
/** Signs for an unknown key, so refusing one costs what refusing a wrong signature costs. */
const UNKNOWN_KEY_SECRET = 'no-such-key';

/**
 * Authenticates gateway callers. Provider records are cached (bounded) because every request needs
 * one. Committed changes to providers, merchants and infrastructures drop the cache
 * (ProviderDirectoryChanged): where the ledger projection runs in this process (the embedded
 * default) before the change is answered, so a disabled provider or a rotated secret stops working
 * with the answer; in a gateway process of its own (distributed mode) when the broadcast notice
 * arrives, which the ledger sends before it answers but which arrives asynchronously (README,
 * Security). CACHE_TTL_MS bounds what a lost notice can cost (an entry answers at most that long
 * after its read began). Concurrent misses of one key share one read, and an entry in its last
 * CACHE_REFRESH_AHEAD_MS is read again in the background while it answers, so steady traffic never
 * waits for the read.
 */
@Injectable()
export class ProviderAuthService {
  private readonly cache = new Map<string, { value: ProviderCredentials | null; expiresAt: number }>();
  /** Reads in flight per key (bounded by the keys in use, at most CACHE_MAX_ENTRIES cached ones plus misses). */
  private readonly reads = new Map<string, Promise<ProviderCredentials | null>>();
  /** Moves on every drop: a lookup that was in flight across one must not cache what it read. */
  private generation = 0;

  /** Forgets every cached record (a provider, merchant or infrastructure changed). */
  forgetAll(): void {
    this.generation++;
    this.cache.clear();
    // A read in flight began before the change: later callers must not share it.
    this.reads.clear();
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
    apiKey: string,
    presentedSignature: string,
    signatureOf: (apiSecret: string) => string,
    refusal: () => DomainError,
  ): Promise<ProviderCredentials> {
    const provider = await this.findByApiKey(apiKey);
    const expected = signatureOf(provider?.apiSecret ?? UNKNOWN_KEY_SECRET);
    if (!provider || !digestsEqual(expected, presentedSignature)) throw refusal();
    return provider;
  }

  private async findByApiKey(apiKey: string | undefined): Promise<ProviderCredentials | null> {
    if (!apiKey || apiKey.length > 256) return null;
    const now = Date.now();
    const entry = this.cache.get(apiKey);
    if (entry && entry.expiresAt > now) {
      // Near its end the entry is read again in the background while it still answers, so under
      // steady traffic no request waits for the read (on PGlite it queues behind the group append
      // and the projection batch in flight: every key's requests of that moment paid it, a p99 source).
      if (entry.expiresAt - now < CACHE_REFRESH_AHEAD_MS) void this.read(apiKey).catch(() => undefined);
      return entry.value;
    }
    return this.read(apiKey);
  }

  /** One read per key at a time: concurrent misses share it. Caches what it read unless a drop overlapped it. */
  private read(apiKey: string): Promise<ProviderCredentials | null> {
    const pending = this.reads.get(apiKey);
    if (pending) return pending;
    const generation = this.generation;
    const startedAt = Date.now();
    const read = this.query(apiKey).then((value: ProviderCredentials | null) => {
      // Read before a drop that happened meanwhile: good for this request (it overlapped the
      // change), not for the next ones.
      if (generation === this.generation) {
        if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
        // Valid from when the read started: never answered longer than CACHE_TTL_MS after it.
        this.cache.set(apiKey, { value, expiresAt: startedAt + CACHE_TTL_MS });
      }
      return value;
    });
    void read
      .finally(() => {
        if (this.reads.get(apiKey) === read) this.reads.delete(apiKey);
      })
      .catch(() => undefined);
    this.reads.set(apiKey, read);
    return read;
  }

  /** The read model's record, as a promise even when the bus throws at once. */
  private query(apiKey: string): Promise<ProviderCredentials | null> {
    try {
      return this.queries.execute(new FindProviderByApiKeyQuery(apiKey));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /** Key + secret callers (status, Merchant API, test-auth): known key, matching secret, allowed IP, active. */
  async authenticate(
    credentials: { apiKey?: string; apiSecret?: string },
    clientIp: string,
  ): Promise<ProviderCredentials> {
    const provider = await this.byApiKey(credentials.apiKey);
    this.assertSecret(provider, credentials.apiSecret);
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

  /** Secret comparison in constant time. */
  assertSecret(provider: ProviderCredentials, presented: string | undefined): void {
    const expected = Buffer.from(provider.apiSecret, 'utf8');
    const given = Buffer.from(presented ?? '', 'utf8');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new DomainError('invalid_credentials', 'invalid API credentials');
    }
  }
}
