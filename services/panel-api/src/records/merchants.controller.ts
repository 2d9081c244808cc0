import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  MerchantProvidersRequestSchema,
  MerchantSaveRequestSchema,
  MerchantToggleRequestSchema,
  RecordIdRequestSchema,
  RecordListQuerySchema,
  parseBody,
} from '@transfergate/contracts';
import { CurrentOperator, RequirePermission, type OperatorContext } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { MerchantsService } from './merchants.service.js';
import { panelPaths } from './panel-paths.js';
import { recordIdParam } from './record-commands.js';

/** /panel/merchants/* and its contract synonym /panel/dealers/*, bare and under /api. */
const both = (action: string) => panelPaths(`merchants/${action}`, `dealers/${action}`);

@Controller()
@UseGuards(PanelAuthGuard)
export class MerchantsController {
  constructor(private readonly merchants: MerchantsService) {}

  @Get(panelPaths('merchants', 'dealers'))
  @RequirePermission('merchants.view')
  async list(@Query() query: unknown) {
    return this.merchants.list(parseBody(RecordListQuerySchema, query ?? {}).includeDeleted);
  }

  @Get(both(':id'))
  @RequirePermission('merchants.view')
  async get(@Param('id') id: string) {
    return this.merchants.get(recordIdParam(id, 'merchant'));
  }

  @Post(both('save'))
  @HttpCode(201)
  @RequirePermission('merchants.manage')
  async save(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.merchants.save(parseBody(MerchantSaveRequestSchema, body), operator);
  }

  @Post(both('toggle'))
  @HttpCode(201)
  @RequirePermission('merchants.manage')
  async toggle(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    const input = parseBody(MerchantToggleRequestSchema, body);
    return this.merchants.toggle(input.id, input.active, operator);
  }

  @Post(both('update-providers'))
  @HttpCode(201)
  @RequirePermission('merchants.manage')
  async updateProviders(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    const input = parseBody(MerchantProvidersRequestSchema, body);
    return this.merchants.updateProviders(input.id, input.providerIds, operator);
  }

  @Post(both('delete'))
  @HttpCode(201)
  @RequirePermission('merchants.manage')
  async delete(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.merchants.delete(parseBody(RecordIdRequestSchema, body).id, operator);
  }
}
