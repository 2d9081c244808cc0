import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { ERROR_CODES, isDomainError, type ErrorCode } from '@transfergate/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { allowedMethodsFor } from './allowed-methods.js';
import { errorBody, errorShapeForPath } from './error-shapes.js';

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'invalid_credentials',
  403: 'ip_not_allowed',
  404: 'not_found',
  409: 'duplicate_transaction',
  413: 'payload_too_large',
  415: 'validation_failed',
  422: 'invalid_state_transition',
  429: 'rate_limited',
  503: 'unavailable',
};

/**
 * The one place an exception becomes an HTTP answer. Domain refusals keep their code; framework
 * errors (malformed JSON, body too large, unknown route) get theirs; anything else is a 500 with a
 * generic message, logged here and never echoed to the caller.
 */
@Catch()
export class FormErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const shape = errorShapeForPath(request.url);
    const wrongMethod = this.methodNotAllowed(request);
    const { status, code, message, details } = wrongMethod ?? this.classify(exception);
    if (wrongMethod) void reply.header('allow', wrongMethod.allow);
    if (status >= 500 && code === 'internal_error') {
      this.logger.error({
        requestId: String(request.id),
        msg: `${request.method} ${request.url.split('?')[0]} failed: ${(exception as Error)?.stack ?? String(exception)}`,
      });
    }
    void reply.status(status).send(errorBody(shape, status, code, message, details));
  }

  /**
   * No route took the request, but the path is known with other methods: 405 with `Allow`. A 404
   * thrown by a route that did match keeps its meaning (the path answers this method).
   */
  private methodNotAllowed(
    request: FastifyRequest,
  ): { status: number; code: ErrorCode; message: string; details?: unknown; allow: string } | undefined {
    if (request.routeOptions?.url) return undefined;
    const path = request.url.split('?')[0]!;
    const allowed = allowedMethodsFor(request.server, path);
    if (allowed.length === 0 || allowed.includes(request.method)) return undefined;
    return {
      status: 405,
      code: 'method_not_allowed',
      message: `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
      allow: allowed.join(', '),
    };
  }

  private classify(exception: unknown): { status: number; code: ErrorCode; message: string; details?: unknown } {
    if (isDomainError(exception)) {
      return {
        status: ERROR_CODES[exception.errorCode],
        code: exception.errorCode,
        message: exception.message,
        details: exception.details,
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse() as
        { errorCode?: ErrorCode; message?: string; details?: unknown } | string;
      if (typeof response === 'object' && response.errorCode) {
        return { status, code: response.errorCode, message: String(response.message), details: response.details };
      }
      const message = typeof response === 'string' ? response : String(response.message ?? exception.message);
      // Fastify's body parser errors reach us wrapped by Nest; keep their specific codes.
      const cause = (exception.cause ?? {}) as { code?: string };
      if (
        status === 400 &&
        (cause.code?.startsWith('FST_ERR_CTP') || /not valid JSON|Unexpected token|JSON/i.test(message))
      ) {
        return { status, code: 'malformed_json', message: 'request body is not valid JSON' };
      }
      if (status === 413) return { status, code: 'payload_too_large', message: 'request body too large' };
      return { status, code: BY_STATUS[status] ?? (status >= 500 ? 'unavailable' : 'validation_failed'), message };
    }
    // Fastify's own errors (content-type parser, body limit) carry a statusCode and an FST_ code.
    const fastifyError = exception as { statusCode?: number; code?: string; message?: string };
    if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode < 500) {
      const status = fastifyError.statusCode;
      if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return { status: 413, code: 'payload_too_large', message: 'request body too large' };
      if (fastifyError.code?.startsWith('FST_ERR_CTP') || status === 400) {
        return { status: 400, code: 'malformed_json', message: 'request body is not valid JSON' };
      }
      return { status, code: BY_STATUS[status] ?? 'validation_failed', message: fastifyError.message ?? 'bad request' };
    }
    return { status: 500, code: 'internal_error', message: 'internal error' };
  }
}
