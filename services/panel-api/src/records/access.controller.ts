import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  OperatorInviteMerchantUserRequestSchema,
  OperatorSaveRequestSchema,
  RecordListQuerySchema,
  RoleDeleteRequestSchema,
  RoleSaveRequestSchema,
  parseBody,
} from '@transfergate/contracts';
import { CurrentOperator, RequirePermission, type OperatorContext } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { AccessService } from './access.service.js';
import { panelPaths } from './panel-paths.js';
import { recordIdParam } from './record-commands.js';

/** Operators (never a password hash or TOTP secret in an answer) and roles (/panel/roles/save|delete). */
@Controller()
@UseGuards(PanelAuthGuard)
export class AccessController {
  constructor(private readonly access: AccessService) {}

  @Get(panelPaths('operators'))
  @RequirePermission('operators.view')
  async listOperators() {
    return this.access.listOperators();
  }

  @Get(panelPaths('operators/:id'))
  @RequirePermission('operators.view')
  async getOperator(@Param('id') id: string) {
    return this.access.getOperator(recordIdParam(id, 'operator'));
  }

  @Post(panelPaths('operators/save'))
  @HttpCode(201)
  @RequirePermission('operators.manage')
  async saveOperator(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.access.saveOperator(parseBody(OperatorSaveRequestSchema, body), operator);
  }

  /** A merchant user for a merchant's portal, with a generated first password answered once. */
  @Post(panelPaths('merchant-users/invite'))
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @RequirePermission('operators.manage')
  async inviteMerchantUser(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.access.inviteMerchantUser(parseBody(OperatorInviteMerchantUserRequestSchema, body), operator);
  }

  @Get(panelPaths('roles'))
  @RequirePermission('roles.view')
  async listRoles(@Query() query: unknown) {
    return this.access.listRoles(parseBody(RecordListQuerySchema, query ?? {}).includeDeleted);
  }

  @Get(panelPaths('roles/:name'))
  @RequirePermission('roles.view')
  async getRole(@Param('name') name: string) {
    return this.access.getRole(name);
  }

  @Post(panelPaths('roles/save'))
  @HttpCode(201)
  @RequirePermission('roles.manage')
  async saveRole(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    const input = parseBody(RoleSaveRequestSchema, body);
    return this.access.saveRole(input.name, input.permissions, operator);
  }

  @Post(panelPaths('roles/delete'))
  @HttpCode(201)
  @RequirePermission('roles.manage')
  async deleteRole(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.access.deleteRole(parseBody(RoleDeleteRequestSchema, body).name, operator);
  }
}
