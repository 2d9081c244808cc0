import { ENGINE_FEED_CONSUMER_PREFIX } from '@transfergate/event-store';
import { HttpException } from '@nestjs/common';
import type { ConsumerLag } from '../metrics/database-sources.js';
import { ReadinessController } from './readiness.controller.js';

const controller = (lag: () => Promise<ConsumerLag[]>) =>
  new ReadinessController({ consumerLag: lag }, { maxLagEvents: 10, maxLagSeconds: 5 });

async function answer(lag: () => Promise<ConsumerLag[]>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    return { status: 200, body: (await controller(lag).ready()) as Record<string, unknown> };
  } catch (error) {
    if (!(error instanceof HttpException)) throw error;
    return { status: error.getStatus(), body: error.getResponse() as Record<string, unknown> };
  }
}

describe('readiness decision', () => {
  it('is ready within both bounds, at the bounds included', async () => {
    const ready = await answer(async () => [
      { consumer: 'a', lagEvents: 10, lagSeconds: 5 },
      { consumer: 'b', lagEvents: 0, lagSeconds: 0 },
    ]);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', maxLagEvents: 10, maxLagSeconds: 5 });
  });

  it('is not ready when a consumer is too many events or too many seconds behind, naming only those', async () => {
    const byEvents = await answer(async () => [
      { consumer: 'a', lagEvents: 11, lagSeconds: 0.1 },
      { consumer: 'b', lagEvents: 0, lagSeconds: 0 },
    ]);
    expect(byEvents.status).toBe(503);
    expect(byEvents.body).toMatchObject({ success: false, errorCode: 'unavailable' });
    expect(byEvents.body.message).toBe('consumers behind the event stream: a');
    const bySeconds = await answer(async () => [
      { consumer: 'a', lagEvents: 1, lagSeconds: 0 },
      { consumer: 'b', lagEvents: 1, lagSeconds: 5.5 },
    ]);
    expect(bySeconds.status).toBe(503);
    expect(bySeconds.body.message).toBe('consumers behind the event stream: b');
  });

  it('is not ready when the database does not answer', async () => {
    const down = await answer(() => Promise.reject(new Error('connection refused')));
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ errorCode: 'unavailable', details: { database: 'unreachable' } });
  });

  it("lists an engine feed's lag but is not made unready by it: the answers come from PostgreSQL", async () => {
    const feedBehind = await answer(async () => [
      { consumer: 'a', lagEvents: 0, lagSeconds: 0 },
      { consumer: `${ENGINE_FEED_CONSUMER_PREFIX}kurrentdb-event-mirror`, lagEvents: 5_000, lagSeconds: 600 },
    ]);
    expect(feedBehind.status).toBe(200);
    expect(feedBehind.body.consumers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ consumer: 'engine-feed:kurrentdb-event-mirror', lagEvents: 5_000 }),
      ]),
    );
    const both = await answer(async () => [
      { consumer: 'a', lagEvents: 11, lagSeconds: 0 },
      { consumer: `${ENGINE_FEED_CONSUMER_PREFIX}mongodb-transaction-read-model`, lagEvents: 5_000, lagSeconds: 600 },
    ]);
    expect(both.status).toBe(503);
    expect(both.body.message).toBe('consumers behind the event stream: a');
  });
});
