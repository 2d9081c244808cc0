import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { BankAccountSaveRequestSchema, InfrastructureSaveRequestSchema, parseBody } from '@transfergate/contracts';
import { CurrentOperator, RequirePermission, type OperatorContext } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { DirectoryService } from './directory.service.js';
import { panelPaths } from './panel-paths.js';
import { recordIdParam } from './record-commands.js';

/** Infrastructures (the contract's /panel/infrastructure/save) and receiving bank accounts. */
@Controller()
@UseGuards(PanelAuthGuard)
export class DirectoryController {
  constructor(private readonly directory: DirectoryService) {}

  @Get(panelPaths('infrastructures', 'infrastructure'))
  @RequirePermission('infrastructures.view')
  async listInfrastructures() {
    return this.directory.listInfrastructures();
  }

  @Get(panelPaths('infrastructures/:id', 'infrastructure/:id'))
  @RequirePermission('infrastructures.view')
  async getInfrastructure(@Param('id') id: string) {
    return this.directory.getInfrastructure(recordIdParam(id, 'infrastructure'));
  }

  @Post(panelPaths('infrastructure/save', 'infrastructures/save'))
  @HttpCode(201)
  @RequirePermission('infrastructures.manage')
  async saveInfrastructure(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.directory.saveInfrastructure(parseBody(InfrastructureSaveRequestSchema, body), operator);
  }

  @Get(panelPaths('bank-accounts'))
  @RequirePermission('bank_accounts.view')
  async listBankAccounts() {
    return this.directory.listBankAccounts();
  }

  @Get(panelPaths('bank-accounts/:id'))
  @RequirePermission('bank_accounts.view')
  async getBankAccount(@Param('id') id: string) {
    return this.directory.getBankAccount(recordIdParam(id, 'bank account'));
  }

  @Post(panelPaths('bank-accounts/save'))
  @HttpCode(201)
  @RequirePermission('bank_accounts.manage')
  async saveBankAccount(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    return this.directory.saveBankAccount(parseBody(BankAccountSaveRequestSchema, body), operator);
  }
}
