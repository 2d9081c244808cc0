import { trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER, requestIdFrom } from '../context/request-context.js';
import type { TransfergateMetrics } from '../metrics/transfergate-metrics.js';

/** For FastifyAdapter's `genReqId`: the caller's sane `x-request-id`, else a fresh UUID. */
export function generateRequestId(request: { headers: Record<string, unknown> }): string {
  return requestIdFrom(request.headers[REQUEST_ID_HEADER]);
}

/**
 * Request ids, the latency histogram and one access line per request, as Fastify hooks (registered
 * before the app initialises so they cover every route, Nest's and plain Fastify ones alike).
 * The request id is `request.id` (generateRequestId); the routes hand it on explicitly (originOf).
 */
export function registerHttpObservability(
  fastify: FastifyInstance,
  options: { metrics: TransfergateMetrics; logger: Logger },
): void {
  const { metrics, logger } = options;
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, String(request.id));
    // With tracing on, the HTTP server span is active here: name it by route and tag the request id.
    // Without an SDK there is no active span and this is one lookup.
    const span = trace.getActiveSpan();
    if (span) {
      const route = request.routeOptions.url;
      if (route) span.updateName(`${request.method} ${route}`).setAttribute('http.route', route);
      span.setAttribute('transfergate.request_id', String(request.id));
    }
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const seconds = reply.elapsedTime / 1_000;
    const route = request.routeOptions.url;
    metrics.observeHttp(request.method, route, reply.statusCode, seconds);
    const failed = reply.statusCode >= 500;
    // The line is built only if it will be written: an object per request is garbage otherwise.
    if (!logger.isLevelEnabled(failed ? 'error' : 'info')) return done();
    const line = {
      requestId: String(request.id),
      method: request.method,
      route: route ?? null,
      statusCode: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
    };
    if (failed) logger.error(line, 'request failed');
    else logger.info(line, 'request completed');
    done();
  });
}
