import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, buildOpenApiDocument } from '@transfergate/contracts';
import { SERVICE_VERSION } from '../health/health.controller.js';
import { DOCS_CSP, docsAsset, docsPage } from './docs-assets.js';

const API_PREFIX = /^\/api(?=\/)/;

/**
 * GET /openapi.json: the OpenAPI 3.1 document generated from the contract's zod schemas; GET /docs:
 * Swagger UI on it, every asset from this server. Both also under /api. The document uses relative
 * server URLs, so it is right behind any host name without trusting the Host header.
 */
@Controller()
export class DocsController {
  private readonly openApiJson = JSON.stringify(buildOpenApiDocument({ version: SERVICE_VERSION }));

  @Get(['openapi.json', 'api/openapi.json'])
  openApi(@Res() reply: FastifyReply): void {
    void reply
      .header('cache-control', 'no-cache')
      .header('access-control-allow-origin', '*')
      .type('application/json; charset=utf-8')
      .send(this.openApiJson);
  }

  @Get(['docs', 'api/docs'])
  page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const prefix = API_PREFIX.test(request.url) ? '/api' : '';
    void reply
      .header('content-security-policy', DOCS_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(docsPage(prefix));
  }

  @Get(['docs/assets/:name', 'api/docs/assets/:name'])
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = docsAsset(name);
    if (!asset) throw new DomainError('not_found', 'no such documentation asset');
    void reply
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=3600')
      .type(asset.contentType)
      .send(asset.body());
  }
}
