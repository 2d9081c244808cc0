import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { SandboxActionRequestSchema, parseBody, type StatusResponse } from '@transfergate/contracts';
import { presentedCredentials } from '../auth/credentials.js';
import { ProviderAuthService } from '../auth/provider-auth.service.js';
import { fieldsOf } from '../merchant/merchant.controller.js';
import { originOf } from '@transfergate/runtime/http';
import { SandboxService } from './sandbox.service.js';

/**
 * POST /sandbox/transactions/{identifier}/approve | reject: an integrator decides a transaction of
 * its own sandbox provider, so it sees every callback before going live. Same credentials and `by`
 * as POST /status; 403 sandbox_only for a provider an admin has not marked sandbox.
 */
@Controller()
export class SandboxController {
  constructor(
    private readonly auth: ProviderAuthService,
    private readonly sandbox: SandboxService,
  ) {}

  @Post(['sandbox/transactions/:identifier/approve', 'api/sandbox/transactions/:identifier/approve'])
  @HttpCode(201)
  approve(@Param('identifier') identifier: string, @Req() request: FastifyRequest): Promise<StatusResponse> {
    return this.decide('approve', identifier, request);
  }

  @Post(['sandbox/transactions/:identifier/reject', 'api/sandbox/transactions/:identifier/reject'])
  @HttpCode(201)
  reject(@Param('identifier') identifier: string, @Req() request: FastifyRequest): Promise<StatusResponse> {
    return this.decide('reject', identifier, request);
  }

  private async decide(action: 'approve' | 'reject', identifier: string, request: FastifyRequest) {
    const input = parseBody(SandboxActionRequestSchema, fieldsOf(request));
    const provider = await this.auth.authenticate(presentedCredentials(request), request);
    return this.sandbox.decide(provider, action, identifier, input, originOf(request));
  }
}
