import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { presentedCredentials } from '../auth/credentials.js';
import type { GatewaySettings } from '../gateway.settings.js';

/** Paths that are not merchant API calls and are never limited per provider. */
const UNLIMITED = /^(\/api)?\/(payment\/|docs|openapi\.json|eqopay\/health)|^(\/api)?\/?$/;

function providerKey(request: FastifyRequest): string {
  const fromHeaders = presentedCredentials(request).apiKey;
  const body = request.body as Record<string, unknown> | undefined;
  const fromBody =
    typeof body?.apikey === 'string' ? body.apikey : typeof body?.ApiKey === 'string' ? body.ApiKey : undefined;
  // Unauthenticated callers share a bucket per IP, so guessing keys is limited too.
  return `key:${fromHeaders ?? fromBody ?? `ip:${request.ip}`}`;
}

/**
 * Requests per minute per provider API key (@fastify/rate-limit, in memory: per process). Runs as a
 * preHandler so the key can come from the parsed body; answers 429 in the form's error shape with
 * Retry-After. A limit of 0 turns it off.
 */
export async function registerProviderRateLimit(fastify: FastifyInstance, settings: GatewaySettings): Promise<void> {
  // An unset limit must not silently become the plugin's own default (1000/min): refuse to start.
  if (!Number.isInteger(settings.rateLimitPerMinute) || settings.rateLimitPerMinute < 0) {
    throw new RangeError(`rateLimitPerMinute must be a non-negative integer, got ${settings.rateLimitPerMinute}`);
  }
  if (settings.rateLimitPerMinute === 0) return;
  await fastify.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    max: settings.rateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: providerKey,
    allowList: (request) => request.method === 'GET' && UNLIMITED.test(request.url.split('?')[0]!),
    // The thrown error reaches FormErrorFilter, which answers 429 `rate_limited` in the form's shape.
    errorResponseBuilder: (_request, context) =>
      Object.assign(
        new Error(`rate limit of ${context.max} requests per minute reached; retry after ${context.after}`),
        {
          statusCode: 429,
        },
      ),
  });
}
