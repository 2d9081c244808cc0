import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  CallbackRefSchema,
  DomainError,
  FindCallbackDeliveryQuery,
  ListCallbackDeliveriesQuery,
  PanelCallbackListRequestSchema,
  PanelCallbackResendRequestSchema,
  ResendCallbackCommand,
  parseBody,
  type PanelCallbackDetail,
  type PanelCallbackPage,
} from '@transfergate/contracts';
import { CurrentOperator, RequirePermission, actorOf, type OperatorContext } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { panelPaths } from '../records/panel-paths.js';
import { maySeeSecrets } from '../secrets/secret-redaction.js';
import { redactCallbackDetail, redactCallbackPage } from './callback-redaction.js';

/**
 * The callback log (each path also under /api):
 * - GET /panel/callbacks?state=pending,failed&transactionId=&type=&limit=&cursor= — deliveries newest
 *   first; transactionId matches the caller's transaction id, the internal UUID or the number.
 * - GET /panel/callbacks/:id — one delivery (by its id = webhook-id, the transaction UUID or number)
 *   with its exact body and every attempt (time, status, latency, response excerpt ≤ 1 KiB); the body's
 *   SecurityKey / signature (and those values in excerpts and errors) only with secrets.view; without
 *   it, a redirect target in an error (list and detail) shows only its origin.
 * - POST /panel/callbacks/resend {id} — sends it again now, whatever its state; 201 with the delivery.
 * The callback dispatcher owns the data and answers over the query and command buses.
 */
@Controller()
@UseGuards(PanelAuthGuard)
export class CallbacksController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {}

  @Get(panelPaths('callbacks'))
  @RequirePermission('callbacks.view')
  async list(@Query() query: unknown, @CurrentOperator() operator: OperatorContext): Promise<PanelCallbackPage> {
    const page = await this.queries.execute(
      new ListCallbackDeliveriesQuery(parseBody(PanelCallbackListRequestSchema, query ?? {})),
    );
    return maySeeSecrets(operator) ? page : redactCallbackPage(page);
  }

  @Get(panelPaths('callbacks/:id'))
  @RequirePermission('callbacks.view')
  async detail(@Param('id') id: string, @CurrentOperator() operator: OperatorContext): Promise<PanelCallbackDetail> {
    const ref = CallbackRefSchema.safeParse(id);
    const found = ref.success ? await this.queries.execute(new FindCallbackDeliveryQuery(ref.data)) : null;
    if (!found) throw new DomainError('not_found', `no callback ${id}`);
    return shownTo(operator, found);
  }

  @Post(panelPaths('callbacks/resend'))
  @HttpCode(201)
  @RequirePermission('callbacks.resend')
  async resend(@Body() body: unknown, @CurrentOperator() operator: OperatorContext): Promise<PanelCallbackDetail> {
    const { id } = parseBody(PanelCallbackResendRequestSchema, body);
    return shownTo(
      operator,
      await this.commands.execute(new ResendCallbackCommand({ ref: id, actor: actorOf(operator) })),
    );
  }
}

/** Signatures and hashes in the body and the answers only for operators holding secrets.view. */
function shownTo(operator: OperatorContext, detail: PanelCallbackDetail): PanelCallbackDetail {
  return maySeeSecrets(operator) ? detail : redactCallbackDetail(detail);
}
