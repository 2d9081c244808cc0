import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiSettingsRequestSchema, parseBody } from '@transfergate/contracts';
import { CurrentOperator, RequirePermission, type OperatorContext } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { panelPaths } from '../records/panel-paths.js';
import { ApiSettingsService } from './api-settings.service.js';

/** GET (200) and POST (201) /panel/settings/api; POST is a partial update. */
@Controller()
@UseGuards(PanelAuthGuard)
export class ApiSettingsController {
  constructor(private readonly settings: ApiSettingsService) {}

  @Get(panelPaths('settings/api'))
  @RequirePermission('settings.view')
  async get() {
    return this.settings.view();
  }

  @Post(panelPaths('settings/api'))
  @HttpCode(201)
  @RequirePermission('settings.manage')
  async update(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.settings.update(parseBody(ApiSettingsRequestSchema, body), operator);
  }
}
