import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListBanksQuery } from '@transfergate/contracts';
import { findDeposit, reportPayment } from './deposit-lookup.js';
import { effectiveState, mayReport, secondsLeft } from './deposit-status.js';
import { chooseLanguage } from './language.js';
import { buildPageModel } from './page-model.js';
import { PaymentPageErrorFilter } from './payment-page-error.filter.js';
import { parsePaymentReport } from './payment-report.js';
import { renderNotFoundPage, renderPaymentPage } from './payment-page.view.js';
import { htmlHeaders, jsonHeaders, newNonce, redirectHeaders } from './security-headers.js';
import { originOf } from '@transfergate/runtime/http';

/**
 * The customer's payment page (contract: `{payment_page_url}/payment/{token}`). The token is the
 * customer's only credential; these routes show the deposit it opens and let the customer say the
 * transfer is sent. Rendering, texts and rules live next to this file.
 */
@Controller()
@UseFilters(PaymentPageErrorFilter)
export class PaymentPageController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {}

  @Get('payment/:token')
  async page(
    @Param('token') token: string,
    @Query('lang') lang: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const language = chooseLanguage(lang, request.headers['accept-language']);
    const nonce = newNonce();
    const deposit = await findDeposit(this.queries, token);
    if (!deposit) return reply.status(404).headers(htmlHeaders(nonce)).send(renderNotFoundPage(language, nonce));
    const now = new Date();
    // The bank list is only needed while the customer can still pay.
    const banks = mayReport(deposit, now) ? await this.queries.execute(new ListBanksQuery()) : [];
    const model = buildPageModel(deposit, token, banks, now);
    return reply
      .status(200)
      .headers(htmlHeaders(nonce))
      .send(renderPaymentPage(model, language, nonce));
  }

  /** What the page polls: the state the customer should see and the time left. */
  @Get('payment/:token/status')
  async status(@Param('token') token: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const deposit = await findDeposit(this.queries, token);
    if (!deposit) {
      return reply
        .status(404)
        .headers(jsonHeaders())
        .send({ errorCode: 'not_found', message: 'no payment for this link' });
    }
    const now = new Date();
    return reply
      .status(200)
      .headers(jsonHeaders())
      .send({
        state: effectiveState(deposit, now),
        expiresAt: deposit.expiresAt ?? null,
        secondsLeft: secondsLeft(deposit, now),
      });
  }

  /**
   * The "I have sent the transfer" form (with the bank picked and the time typed, both optional):
   * report, then 303 back to the page (post/redirect/get).
   */
  @Post('payment/:token/reported')
  async reported(
    @Param('token') token: string,
    @Query('lang') lang: unknown,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const language = chooseLanguage(lang, request.headers['accept-language']);
    const deposit = await findDeposit(this.queries, token);
    if (!deposit) {
      const nonce = newNonce();
      return reply.status(404).headers(htmlHeaders(nonce)).send(renderNotFoundPage(language, nonce));
    }
    const now = new Date();
    // The bank is one of the choices the page offered (the list and the receiving account's own bank).
    const reported =
      typeof body === 'string' && body !== ''
        ? parsePaymentReport(
            body,
            buildPageModel(deposit, token, await this.queries.execute(new ListBanksQuery()), now).banks,
            now,
          )
        : {};
    await reportPayment(this.commands, deposit, originOf(request), now, reported);
    // Relative to /payment/<token>/reported, so a path prefix in front of the gateway is kept.
    return reply
      .status(303)
      .headers(redirectHeaders(`../${encodeURIComponent(token)}?lang=${language}`))
      .send();
  }
}
