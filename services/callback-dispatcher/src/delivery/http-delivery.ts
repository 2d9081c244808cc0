import { request, type Dispatcher } from 'undici';
import type { CallbackAttemptOutcome } from '@transfergate/contracts';
import { parseRetryAfter } from './retry-policy.js';

/** At most this much of an answer is kept in the callback log. */
export const RESPONSE_EXCERPT_BYTES = 1_024;

/**
 * undici's own headers/body timeouts are only a backstop this much behind our deadline, so the
 * deadline (which yields to waiting I/O first, see postCallback) is what ends a slow attempt.
 */
const UNDICI_TIMEOUT_MARGIN_MS = 1_000;

export interface HttpAttemptResult {
  outcome: CallbackAttemptOutcome;
  statusCode: number | null;
  /** Until the answer's status line (or the failure). */
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  retryAfterMs: number | undefined;
  /** The egress policy refused the target: nothing was sent, and a retry would be refused again. */
  refused?: boolean;
}

/**
 * One POST of a callback. Never follows a redirect (undici's request() does not; a 3xx is a failed
 * attempt). Success is a 2xx whose status line arrives within `timeoutMs`; the answer's first
 * RESPONSE_EXCERPT_BYTES are read (within the same deadline) and the rest is discarded.
 * `stop` aborts the request when the process shuts down (outcome `aborted`).
 *
 * The deadline yields to I/O before it aborts (a setImmediate after the timer, as undici does for
 * its connect timeout): when the event loop was blocked past the deadline (on PGlite a burst of
 * database work can hold it for seconds), the timer and an answer that arrived in time become ready
 * in the same loop turn, and timers run before I/O. Aborting straight from the timer recorded a 200
 * the receiver had sent within milliseconds as a timeout, and the retry delivered it a second time.
 *
 * Never re-sent below the caller's recording: the request is not idempotent (undici pipelines
 * nothing behind it and fails it, not replays it, when its socket closes) and the dispatcher must
 * not have a retry interceptor (a RetryAgent would resend the POST on its own).
 */
export async function postCallback(options: {
  dispatcher: Dispatcher;
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  stop: AbortSignal;
}): Promise<HttpAttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // One controller for both ends of the attempt, the deadline and the dispatcher's stop
  // (AbortSignal.any cost ~35 µs per attempt, a twentieth of a callback's CPU on PGlite).
  const abort = new AbortController();
  let timedOut = false;
  let lastTurn: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    lastTurn = setImmediate(() => {
      timedOut = true;
      abort.abort(new Error('timeout'));
    });
  }, options.timeoutMs);
  const onStop = () => abort.abort(options.stop.reason);
  if (options.stop.aborted) onStop();
  else options.stop.addEventListener('abort', onStop, { once: true });
  const signal = abort.signal;
  const failure = (outcome: CallbackAttemptOutcome, error: string): HttpAttemptResult => ({
    outcome,
    statusCode: null,
    latencyMs: elapsed(),
    error,
    responseExcerpt: null,
    retryAfterMs: undefined,
  });
  try {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      return failure('not_sent', `not a URL: ${options.url}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return failure('not_sent', `only http and https callback URLs are called, not ${url.protocol}`);
    }
    if (url.username || url.password) {
      return {
        ...failure('not_sent', 'refused: a callback URL must not contain a user name or password'),
        refused: true,
      };
    }
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'POST',
        // undici's default for a POST, stated: never pipelined behind another request, never replayed.
        idempotent: false,
        headers: options.headers,
        body: options.body,
        dispatcher: options.dispatcher,
        signal,
        headersTimeout: options.timeoutMs + UNDICI_TIMEOUT_MARGIN_MS,
        bodyTimeout: options.timeoutMs + UNDICI_TIMEOUT_MARGIN_MS,
      });
    } catch (error) {
      if (options.stop.aborted) return failure('aborted', 'the dispatcher stopped while the request was in flight');
      if (timedOut) return failure('timeout', `no answer within ${options.timeoutMs} ms`);
      const refusal = egressRefusalOf(error);
      if (refusal) return { ...failure('not_sent', `refused: ${refusal}`), refused: true };
      return failure('network_error', describe(error));
    }
    const latencyMs = elapsed();
    const statusCode = response.statusCode;
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], Date.now());
    const responseExcerpt = await readExcerpt(response.body);
    const outcome: CallbackAttemptOutcome =
      statusCode >= 200 && statusCode < 300
        ? 'success'
        : statusCode >= 300 && statusCode < 400
          ? 'redirect'
          : 'http_error';
    return {
      outcome,
      statusCode,
      latencyMs,
      error:
        outcome === 'success'
          ? null
          : outcome === 'redirect'
            ? `redirect ${statusCode} not followed${response.headers.location ? ` (to ${String(response.headers.location).slice(0, 200)})` : ''}`
            : `HTTP ${statusCode}`,
      responseExcerpt,
      retryAfterMs,
    };
  } finally {
    clearTimeout(timer);
    if (lastTurn) clearImmediate(lastTurn);
    options.stop.removeEventListener('abort', onStop);
  }
}

/** The answer's first bytes as UTF-8 text (cut at a character boundary, NUL removed: PostgreSQL text). */
async function readExcerpt(body: Dispatcher.ResponseData['body']): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      size += buffer.length;
      if (size >= RESPONSE_EXCERPT_BYTES) break;
    }
  } catch {
    // The answer's status counts; an unreadable or cut-off body only shortens the excerpt.
  } finally {
    if (!body.destroyed) body.destroy();
  }
  if (size === 0) return null;
  let bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  // Drop a partial UTF-8 sequence at the cut.
  let end = bytes.length;
  let back = 0;
  while (back < 4 && end - back - 1 >= 0 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead !== undefined && lead >= 0xc0) {
    const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (back + 1 < needed) end = end - back - 1;
  }
  bytes = bytes.subarray(0, end);
  // eslint-disable-next-line no-control-regex -- PostgreSQL text cannot hold NUL
  return bytes.toString('utf8').replace(/\u0000/g, '');
}

/** The egress policy's reason when the connector refused the target (the error or its cause). */
function egressRefusalOf(error: unknown): string | undefined {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 3;
    depth++
  ) {
    if (e.code === 'ERR_EGRESS_REFUSED' && typeof e.message === 'string') return e.message;
    e = e.cause as typeof e;
  }
  return undefined;
}

function describe(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code = typeof e?.cause?.code === 'string' ? e.cause.code : typeof e?.code === 'string' ? e.code : undefined;
  const message =
    typeof e?.cause?.message === 'string'
      ? e.cause.message
      : typeof e?.message === 'string'
        ? e.message
        : String(error);
  return (code ? `${code}: ${message}` : message).slice(0, 500);
}
