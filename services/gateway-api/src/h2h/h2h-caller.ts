import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError, h2hHash, type ProviderCredentials } from '@transfergate/contracts';
import { ProviderAuthService } from '../auth/provider-auth.service.js';

/**
 * The H2H identity check shared by deposits and withdrawals: the mandatory hash over a known key
 * first, then an H2H infrastructure, allowed IP, and a callback_url (when sent) equal to the
 * registered one.
 */
@Injectable()
export class H2hCallerService {
  constructor(private readonly auth: ProviderAuthService) {}

  async authenticate(
    input: { apikey: string; transaction_id: string; amount: bigint; hash: string; callback_url?: string },
    request: FastifyRequest,
    registeredCallback: (provider: ProviderCredentials) => string,
  ): Promise<ProviderCredentials> {
    // Signature first: an unknown key and a wrong hash get the same answer, before the key's settings.
    const provider = await this.auth.verifySigned(
      request,
      input.apikey,
      input.hash,
      (secret) => h2hHash(input.apikey, input.transaction_id, secret, input.amount),
      () =>
        new DomainError(
          'invalid_signature',
          'hash does not match SHA256(apikey + transaction_id + secret + round(amount))',
        ),
    );
    this.auth.assertMayCall(provider, request.ip, 'h2h');
    if (input.callback_url !== undefined && input.callback_url !== registeredCallback(provider)) {
      throw new DomainError(
        'callback_url_mismatch',
        'callback_url must equal the callback URL registered for this integration',
      );
    }
    return provider;
  }
}
