import { Controller, Get, Headers, HttpException, Inject, Res } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { METRICS_TOKEN, TRANSFERGATE_METRICS } from '../tokens.js';
import type { TransfergateMetrics } from './transfergate-metrics.js';

/**
 * GET /metrics in the Prometheus text format. Open by default, as Prometheus expects; with
 * METRICS_TOKEN set, only `Authorization: Bearer <token>` is answered (401 otherwise).
 */
@Controller()
export class MetricsController {
  constructor(
    @Inject(TRANSFERGATE_METRICS) private readonly metrics: TransfergateMetrics,
    @Inject(METRICS_TOKEN) private readonly token: string | undefined,
  ) {}

  @Get('metrics')
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() reply: FastifyReply) {
    if (this.token && !bearerMatches(authorization, this.token)) {
      throw new HttpException(
        { success: false, message: 'metrics need the bearer token', errorCode: 'invalid_credentials' },
        401,
      );
    }
    const body = await this.metrics.registry.metrics();
    void reply.header('content-type', this.metrics.registry.contentType).header('cache-control', 'no-store').send(body);
  }
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = Buffer.from(/^Bearer\s+(.+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
