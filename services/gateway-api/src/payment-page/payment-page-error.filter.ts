import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { chooseLanguage } from './language.js';
import { renderErrorPage, renderNotFoundPage } from './payment-page.view.js';
import { htmlHeaders, jsonHeaders, newNonce } from './security-headers.js';

/**
 * The customer must never see the merchant API's JSON error shape or a stack trace: on the page
 * routes anything unexpected becomes a friendly page in their language (the status poll gets JSON,
 * which its script ignores and retries). Scoped to the payment-page controller, it takes precedence
 * over the gateway-wide FormErrorFilter.
 */
@Catch()
export class PaymentPageErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('PaymentPage');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    if (status >= 500) {
      const path = request.url.split('?')[0]!.replace(/\/payment\/[^/]+/, '/payment/:token');
      this.logger.error({
        requestId: String(request.id),
        msg: `${request.method} ${path} failed: ${(exception as Error)?.stack ?? String(exception)}`,
      });
    }
    if (/\/status$/.test(request.url.split('?')[0]!)) {
      void reply
        .status(status)
        .headers(jsonHeaders())
        .send({ errorCode: status === 404 ? 'not_found' : 'unavailable', message: 'status not available' });
      return;
    }
    const query = request.query as { lang?: unknown } | undefined;
    const lang = chooseLanguage(query?.lang, request.headers['accept-language']);
    const nonce = newNonce();
    const page = status === 404 ? renderNotFoundPage(lang, nonce) : renderErrorPage(lang, nonce);
    void reply.status(status).headers(htmlHeaders(nonce)).send(page);
  }
}
