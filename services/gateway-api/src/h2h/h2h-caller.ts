import { Injectable } from '@nestjs/common';
import { DomainError, digestsEqual, h2hHash, type ProviderCredentials } from '@transfergate/contracts';
import { ProviderAuthService } from '../auth/provider-auth.service.js';

/**
 * The H2H identity check shared by deposits and withdrawals: known key on an H2H infrastructure,
 * allowed IP, the mandatory hash, and a callback_url (when sent) equal to the registered one.
 */
@Injectable()
export class H2hCallerService {
  constructor(private readonly auth: ProviderAuthService) {}

  async authenticate(
    input: { apikey: string; transaction_id: string; amount: bigint; hash: string; callback_url?: string },
    ip: string,
    registeredCallback: (provider: ProviderCredentials) => string,
  ): Promise<ProviderCredentials> {
    const provider = await this.auth.byApiKey(input.apikey);
    // The signature first: without the secret, a caller learns nothing about the key's provider
    // (disabled, IP-locked, another form) from the answer.
    if (!digestsEqual(h2hHash(input.apikey, input.transaction_id, provider.apiSecret, input.amount), input.hash)) {
      throw new DomainError(
        'invalid_signature',
        'hash does not match SHA256(apikey + transaction_id + secret + round(amount))',
      );
    }
    this.auth.assertMayCall(provider, ip, 'h2h');
    if (input.callback_url !== undefined && input.callback_url !== registeredCallback(provider)) {
      throw new DomainError(
        'callback_url_mismatch',
        'callback_url must equal the callback URL registered for this integration',
      );
    }
    return provider;
  }
}
