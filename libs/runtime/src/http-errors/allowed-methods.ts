import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';

/**
 * Which methods a path answers, from the routes as registered: a request for a known path with
 * another method is then answered 405 with `Allow` (RFC 9110 §15.5.6), not 404. Fastify's own router
 * is not public, so every route is mirrored into a find-my-way router (the one Fastify uses) as it
 * is registered; the error filter asks it only for requests no route took.
 */
const ALLOWED_METHODS = 'transfergateAllowedMethods';

/** The methods we answer 405 for or list in `Allow`; anything else stays a plain 404. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

type AllowedMethods = (path: string) => string[];

/** Call before the routes are registered (before app.init()). */
export function registerAllowedMethods(fastify: FastifyInstance): void {
  const router = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: 256 });
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const upper = String(method).toUpperCase();
      if (!(METHODS as readonly string[]).includes(upper)) continue;
      try {
        router.on(upper as FindMyWay.HTTPMethod, route.url, () => undefined);
      } catch {
        // Already known (the same route under a second registration, or a HEAD Fastify adds for a GET).
      }
    }
  });
  const allowed: AllowedMethods = (path) => METHODS.filter((method) => router.find(method, path) !== null);
  // Decorations are inherited by encapsulated contexts, so request.server finds it wherever it runs.
  fastify.decorate(ALLOWED_METHODS, allowed);
}

/** The methods `path` answers on this server; empty when the path is unknown (or nothing registered). */
export function allowedMethodsFor(fastify: FastifyInstance, path: string): string[] {
  const allowed = (fastify as unknown as Record<string, AllowedMethods | undefined>)[ALLOWED_METHODS];
  return allowed ? allowed(path) : [];
}
