import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { WebhookKind } from '@transfergate/contracts';
import { WebhookCapture } from './webhook-capture.js';
import { loggableHeaders } from './webhook-headers.js';
import { WebhookIngestService, type WebhookAnswer } from './webhook-ingest.service.js';
import { DEFAULT_BODY_LIMIT, WEBHOOK_ROUTES } from './webhook-routes.js';

/**
 * POST /deposit/callback/{slug}, /withdraw/callback/{slug}, /withdrawal/callback/{slug} (bare and
 * under /api; `slug` may be an alias): upstream status updates. Only allow-listed source IPs;
 * `request.ip` is already the client address (Fastify's trustProxy, from TRUST_PROXY, honours
 * X-Forwarded-For only from the configured proxies). 201 {success:true, message, transactionId,
 * id, uuid, type, status} on success or idempotent repeat; errors are {success:false, message,
 * errorCode} (FormErrorFilter): 400 validation_failed / malformed_json, 403 ip_not_allowed,
 * 404 not_found (slug) / transaction_not_found, 422 invalid_state_transition (unknown status, wrong
 * type, move not allowed) / transaction_final.
 */
@Controller()
export class WebhookIngestController {
  constructor(
    private readonly ingest: WebhookIngestService,
    private readonly capture: WebhookCapture,
  ) {}

  @Post(WEBHOOK_ROUTES.deposit)
  @HttpCode(201)
  async deposit(
    @Param('slug') slug: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
  ): Promise<WebhookAnswer> {
    return this.handle('deposit', slug, body, request);
  }

  @Post(WEBHOOK_ROUTES.withdrawal)
  @HttpCode(201)
  async withdrawal(
    @Param('slug') slug: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
  ): Promise<WebhookAnswer> {
    return this.handle('withdrawal', slug, body, request);
  }

  private handle(kind: WebhookKind, slug: string, body: unknown, request: FastifyRequest): Promise<WebhookAnswer> {
    this.capture.markHandled(request);
    return this.ingest.ingest({
      slug: String(slug ?? '').toLowerCase(),
      kind,
      path: request.url.split('?')[0]!,
      sourceIp: request.ip,
      requestId: String(request.id),
      headers: loggableHeaders(request.headers),
      ...(body === undefined ? {} : { body }),
      bodyLimit: request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT,
    });
  }
}
