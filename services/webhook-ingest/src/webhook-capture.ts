import { Transform, pipeline, type Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '@transfergate/contracts';
import { ACCEPTS_ANY_TEXT } from '@transfergate/runtime/http';
import { WebhookLogRepository } from './log/webhook-log.repository.js';
import { loggableHeaders } from './webhook-headers.js';
import { DEFAULT_BODY_LIMIT, webhookKindOfRoute } from './webhook-routes.js';

interface Capture {
  chunks: Buffer[];
  size: number;
  /** The error body Fastify/Nest sent, when the handler was never reached. */
  answer?: string;
}

const FALLBACK_CODES: Record<number, ErrorCode> = {
  400: 'malformed_json',
  413: 'payload_too_large',
  415: 'validation_failed',
  429: 'rate_limited',
};

/**
 * "Every raw webhook is logged" includes the ones refused before the controller runs: malformed
 * JSON, an empty JSON body, a body over the limit, the rate limit. Route-level hooks on the webhook
 * routes only (attached through Fastify's onRoute hook while the routes are registered, so no other
 * route pays for them): preParsing keeps a copy of the raw bytes (at most the route's body limit),
 * onSend keeps the error answer, and onResponse logs the request as `refused` with that answer's
 * message when the controller never saw it. Requests the controller handles are logged by
 * WebhookIngestService and skipped here.
 */
@Injectable()
export class WebhookCapture {
  private readonly logger = new Logger('WebhookCapture');
  private readonly handled = new WeakSet<object>();
  private readonly captures = new WeakMap<object, Capture>();

  constructor(
    adapterHost: HttpAdapterHost,
    private readonly log: WebhookLogRepository,
  ) {
    // Providers are created before Nest registers its routes (app.init), so onRoute sees ours.
    this.attach(adapterHost.httpAdapter?.getInstance?.() as FastifyInstance | undefined);
  }

  /** The controller took this request over (it logs it itself). */
  markHandled(request: FastifyRequest): void {
    this.handled.add(request.raw);
    this.captures.delete(request.raw);
  }

  private attach(fastify: FastifyInstance | undefined): void {
    if (!fastify || typeof fastify.addHook !== 'function') return;
    const preParsing = async (request: FastifyRequest, _reply: FastifyReply, payload: Readable) =>
      this.tee(request, payload);
    const onSend = async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
      const capture = this.captures.get(request.raw);
      if (capture && !this.handled.has(request.raw) && typeof payload === 'string') capture.answer = payload;
      return payload;
    };
    const onResponse = async (request: FastifyRequest, reply: FastifyReply) => {
      await this.logUnhandled(request, reply).catch((error: unknown) => {
        this.logger.error(`a webhook refused before its handler was not logged: ${(error as Error)?.message}`);
      });
    };
    const withHook = <T>(existing: T | T[] | undefined, hook: T): T[] => [
      ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
      hook,
    ];
    try {
      fastify.addHook('onRoute', (route) => {
        if (!webhookKindOfRoute(route.url)) return;
        // Every raw webhook is logged: what upstreams send is cleaned here (webhook-body.ts), not refused.
        route.config = { ...(route.config as object), [ACCEPTS_ANY_TEXT]: true } as typeof route.config;
        route.preParsing = withHook(route.preParsing, preParsing) as typeof route.preParsing;
        route.onSend = withHook(route.onSend, onSend) as typeof route.onSend;
        route.onResponse = withHook(route.onResponse, onResponse) as typeof route.onResponse;
      });
    } catch (error) {
      this.logger.warn(`webhooks refused by the body parser will not be logged: ${(error as Error).message}`);
    }
  }

  private tee(request: FastifyRequest, payload: Readable): Readable {
    const limit = (request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT) + 1;
    const capture: Capture = { chunks: [], size: 0 };
    this.captures.set(request.raw, capture);
    const copy = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (capture.size < limit) {
          const kept = chunk.subarray(0, limit - capture.size);
          capture.chunks.push(Buffer.from(kept));
          capture.size += kept.length;
        }
        callback(null, chunk);
      },
    });
    // An aborted upload reaches the parser as an error on the copy.
    return pipeline(payload, copy, () => undefined);
  }

  private async logUnhandled(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const kind = webhookKindOfRoute(request.routeOptions.url);
    if (!kind || this.handled.has(request.raw)) return;
    const capture = this.captures.get(request.raw);
    const status = reply.statusCode;
    let answer: { message?: unknown; errorCode?: unknown } = {};
    try {
      answer = capture?.answer ? (JSON.parse(capture.answer) as typeof answer) : {};
    } catch {
      // not a JSON answer: fall back to the status
    }
    const slug = (request.params as { slug?: unknown } | undefined)?.slug;
    const bodyLimit = request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT;
    await this.log.record(
      {
        slug: typeof slug === 'string' ? slug.toLowerCase() : '',
        kind,
        path: request.url.split('?')[0]!,
        sourceIp: request.ip,
        headers: loggableHeaders(request.headers),
        ...(capture && capture.size > 0 ? { rawText: Buffer.concat(capture.chunks).toString('utf8') } : {}),
        bodyLimit,
      },
      {
        outcome: status >= 500 ? 'failed' : 'refused',
        reason:
          typeof answer.message === 'string'
            ? `${answer.message} (refused before the webhook handler)`
            : `refused before the webhook handler with HTTP ${status}`,
        errorCode:
          typeof answer.errorCode === 'string' ? answer.errorCode : (FALLBACK_CODES[status] ?? `http_${status}`),
        httpStatus: status,
      },
    );
  }
}
