import { Controller, Get, HttpException, Inject } from '@nestjs/common';
import { isEngineFeedConsumer } from '@transfergate/event-store';
import { CONSUMER_LAG_SOURCE, READINESS_SETTINGS } from '../tokens.js';
import type { ConsumerLag } from '../metrics/database-sources.js';
import type { ReadinessSettings } from './readiness.settings.js';

/**
 * GET /ready: 200 while every consumer (projection, dispatcher …) is within the bounds (an engine
 * feed's lag is listed but never gates: isEngineFeedConsumer), 503 in the
 * error shape of the non-form routes ({success:false, message, errorCode, details}) otherwise, and
 * when the database does not answer. Liveness stays on GET / and /eqopay/health.
 */
@Controller()
export class ReadinessController {
  constructor(
    @Inject(CONSUMER_LAG_SOURCE) private readonly lag: { consumerLag(): Promise<ConsumerLag[]> },
    @Inject(READINESS_SETTINGS) private readonly settings: ReadinessSettings,
  ) {}

  @Get(['ready', 'api/ready'])
  async ready() {
    let consumers: ConsumerLag[];
    try {
      consumers = await this.lag.consumerLag();
    } catch {
      throw notReady('the database does not answer', { database: 'unreachable' });
    }
    const behind = consumers.filter(
      (c) =>
        !isEngineFeedConsumer(c.consumer) &&
        (c.lagEvents > this.settings.maxLagEvents || c.lagSeconds > this.settings.maxLagSeconds),
    );
    const details = {
      maxLagEvents: this.settings.maxLagEvents,
      maxLagSeconds: this.settings.maxLagSeconds,
      consumers: consumers.map((c) => ({ ...c, lagSeconds: Math.round(c.lagSeconds * 1_000) / 1_000 })),
    };
    if (behind.length > 0) {
      throw notReady(`consumers behind the event stream: ${behind.map((c) => c.consumer).join(', ')}`, details);
    }
    return { status: 'ready', ...details };
  }
}

function notReady(message: string, details: Record<string, unknown>): HttpException {
  // errorCode/message/details are what the gateway's error filter renders; success:false keeps the
  // same body where no such filter is installed (a process without the gateway).
  return new HttpException({ success: false, message, errorCode: 'unavailable', details }, 503);
}
