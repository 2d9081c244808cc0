import { DomainError } from '@transfergate/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Refuses, with 400 in the route's error shape, any request whose JSON body or query string holds
 * text that no legitimate request carries and that PostgreSQL cannot store: NUL, and unpaired UTF-16
 * surrogates (`"\ud800"` is valid JSON, but not Unicode; jsonb refuses it). Without this a field the
 * schema does not know (kept in the request echo) or a query parameter reaches the store and fails
 * there with a 500. The text schemas refuse the same in the fields they know (libs/contracts
 * http/text.ts); this covers everything else, in every process.
 *
 * Routes that must log whatever an upstream sends (incoming webhooks clean such text themselves)
 * opt out with `@RouteConfig({ [ACCEPTS_ANY_TEXT]: true })`.
 */
export const ACCEPTS_ANY_TEXT = 'acceptsAnyText';

/** Bounds the walk (TIGER_STYLE): the body limit bounds size, this bounds nesting. */
const MAX_DEPTH = 64;

export function registerUnstorableTextGuard(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (config?.[ACCEPTS_ANY_TEXT] === true) return done();
    // Only parsed JSON is walked: raw uploads (a bank statement's bytes) are their route's to read.
    const body = isParsedJson(request.body) ? request.body : undefined;
    const where = findUnstorableText(request.query, 'query') ?? findUnstorableText(body, 'body');
    if (where === undefined) return done();
    done(
      new DomainError('validation_failed', `invalid request: ${where} must not contain NUL or unpaired surrogates`, {
        fields: [{ field: where, problem: 'must not contain NUL or unpaired UTF-16 surrogates' }],
      }),
    );
  });
}

/** The path of the first key or string that is not storable text, or undefined when all are. */
export function findUnstorableText(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= MAX_DEPTH) return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}.${i}`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    if (!isStorableText(key)) return `${path} key`;
    const found = findUnstorableText(child, `${path}.${key}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isParsedJson(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  return (
    Array.isArray(body) || Object.getPrototypeOf(body) === Object.prototype || Object.getPrototypeOf(body) === null
  );
}

export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && (text as string & { isWellFormed(): boolean }).isWellFormed();
}
