import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ProviderRotateSecretRequestSchema,
  ProviderSaveRequestSchema,
  RecordIdRequestSchema,
  RecordListQuerySchema,
  parseBody,
} from '@transfergate/contracts';
import { CurrentOperator, RequirePermission, type OperatorContext } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { panelPaths } from './panel-paths.js';
import { ProvidersService } from './providers.service.js';
import { recordIdParam } from './record-commands.js';

/** Providers; answers that carry a secret are never cached. Lists and records never show a secret. */
@Controller()
@UseGuards(PanelAuthGuard)
export class ProvidersController {
  constructor(private readonly providers: ProvidersService) {}

  @Get(panelPaths('providers'))
  @RequirePermission('providers.view')
  async list(@Query() query: unknown) {
    const input = parseBody(RecordListQuerySchema, query ?? {});
    return this.providers.list(input.includeDeleted, input.merchantId);
  }

  @Get(panelPaths('providers/:id'))
  @RequirePermission('providers.view')
  async get(@Param('id') id: string) {
    return this.providers.get(recordIdParam(id, 'provider'));
  }

  @Post(panelPaths('providers/save'))
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @RequirePermission('providers.manage')
  async save(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.providers.save(parseBody(ProviderSaveRequestSchema, body), operator);
  }

  @Post(panelPaths('providers/delete'))
  @HttpCode(201)
  @RequirePermission('providers.manage')
  async delete(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.providers.delete(parseBody(RecordIdRequestSchema, body).id, operator);
  }

  @Post(panelPaths('providers/reveal-secret'))
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @RequirePermission('providers.reveal_secret')
  async revealSecret(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.providers.revealSecret(parseBody(RecordIdRequestSchema, body).id, operator);
  }

  @Post(panelPaths('providers/rotate-secret'))
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @RequirePermission('providers.manage')
  async rotateSecret(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    const input = parseBody(ProviderRotateSecretRequestSchema, body);
    return this.providers.rotateSecret(input.id, input.overlapSeconds, operator);
  }

  @Post(panelPaths('providers/end-secret-overlap'))
  @HttpCode(201)
  @RequirePermission('providers.manage')
  async endSecretOverlap(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.providers.endSecretOverlap(parseBody(RecordIdRequestSchema, body).id, operator);
  }
}
