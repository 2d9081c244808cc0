import { All, Controller, HttpCode, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError, type TestAuthSuccessResponse } from '@transfergate/contracts';
import { presentedCredentials } from '../auth/credentials.js';
import { ProviderAuthService } from '../auth/provider-auth.service.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';

const PATHS = ['test-auth', 'api/test-auth'];
/** The eight methods of the contract; anything else @All would route is answered 404. */
const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'SEARCH']);

/**
 * /test-auth on all eight methods the contract lists. Off (404) in production unless the
 * `testAuthEnabled` setting is on, so it cannot serve as a credential oracle by default.
 */
@Controller()
export class TestAuthController {
  constructor(
    private readonly auth: ProviderAuthService,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  @All(PATHS)
  @HttpCode(200)
  async testAuth(@Req() request: FastifyRequest): Promise<TestAuthSuccessResponse> {
    const open = this.settings.testAuthEnabled || this.settings.environment === 'development';
    if (!open || !METHODS.has(request.method)) {
      throw new DomainError('not_found', 'Cannot find /test-auth');
    }
    const provider = await this.auth.authenticate(presentedCredentials(request), request);
    return { success: true, providerId: provider.number, providerName: provider.name };
  }
}
