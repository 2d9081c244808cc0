import { DomainError } from '@transfergate/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Refuses JSON bodies in which one object names a key twice (`{"amount":10,"amount":99999}`), with
 * 400 `validation_failed` in the route's error shape. JSON.parse keeps the last, but a proxy, a WAF,
 * a signature check or the integrator's own logging may read the first: two readers of one request
 * then see two amounts. The JSON grammar allows duplicates, so no parser option of Fastify's or
 * secure-json-parse's refuses them; this wraps Fastify's own JSON parser (which keeps refusing
 * `__proto__` and `constructor.prototype` keys) and scans the text it accepted for duplicates.
 *
 * The scan is one pass over text already known to be valid JSON: string contents are skipped with
 * indexOf, only object keys are compared (an escaped key is decoded first: `"a"` and `"\u0061"` are
 * one key). Its cost on a deposit body is measured in duplicate-json-keys.spec.ts.
 */
export function registerDuplicateKeyRefusal(app: BodyParserHost): void {
  const fastify = app.getHttpAdapter().getInstance();
  const { onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig as {
    onProtoPoisoning?: 'error' | 'remove' | 'ignore';
    onConstructorPoisoning?: 'error' | 'remove' | 'ignore';
  };
  const parseJson = fastify.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  // Registered through Nest, which then leaves out its own JSON parser (it would register one at init).
  app.useBodyParser('application/json', { bodyLimit: fastify.initialConfig.bodyLimit }, (request, body, done) => {
    const text = body.toString('utf8');
    parseJson(request, text, (error: Error | null, parsed?: unknown) => {
      if (error) return done(error, undefined);
      const duplicate = firstDuplicateKey(text);
      if (duplicate === undefined) return done(null, parsed);
      done(
        new DomainError('validation_failed', `invalid request: ${duplicate} appears more than once`, {
          fields: [{ field: duplicate, problem: 'duplicate key: each key may appear once per object' }],
        }),
        undefined,
      );
    });
  });
}

/** The part of a Nest Fastify application this needs. */
export interface BodyParserHost {
  getHttpAdapter(): { getInstance(): FastifyInstance };
  useBodyParser(
    type: string,
    options: { bodyLimit?: number },
    parser: (request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: unknown) => void) => void,
  ): unknown;
}

const SHORT_OBJECT_KEYS = 16;

interface Frame {
  /** Keys seen so far (a short list is searched faster than a Set is built); undefined for an array. */
  keys: string[] | undefined;
  /** Past SHORT_OBJECT_KEYS keys a Set takes over, so a body of many keys costs linear time. */
  keySet: Set<string> | undefined;
  expectKey: boolean;
  key: string;
  index: number;
}

/** The path (`body.customer.name`) of the first key that appears twice in one object, or undefined. */
export function firstDuplicateKey(text: string): string | undefined {
  const stack: Frame[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        top.key = key;
        top.expectKey = false;
        if (top.keySet) {
          if (top.keySet.has(key)) return pathOf(stack);
          top.keySet.add(key);
        } else {
          if (top.keys.includes(key)) return pathOf(stack);
          top.keys.push(key);
          if (top.keys.length > SHORT_OBJECT_KEYS) top.keySet = new Set(top.keys);
        }
      }
      i = end + 1;
      continue;
    }
    if (c === 0x7b /* { */) stack.push({ keys: [], keySet: undefined, expectKey: true, key: '', index: 0 });
    else if (c === 0x5b /* [ */)
      stack.push({ keys: undefined, keySet: undefined, expectKey: false, key: '', index: 0 });
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) stack.pop();
    else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1]!;
      if (top.keys) top.expectKey = true;
      else top.index++;
    }
    i++;
  }
  return undefined;
}

/** The index of the quote that closes the string opening at `open` (valid JSON: one exists). */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    if (end < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

function pathOf(stack: Frame[]): string {
  return ['body', ...stack.map((frame) => (frame.keys ? frame.key : String(frame.index)))].join('.');
}
