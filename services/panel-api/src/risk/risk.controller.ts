import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  AddBlocklistEntriesCommand,
  BlocklistEntriesQuerySchema,
  BlocklistEntriesRequestSchema,
  BlocklistRemoveRequestSchema,
  ConfigureRiskRuleCommand,
  DomainError,
  ListBlocklistEntriesQuery,
  ListRiskRulesQuery,
  RemoveBlocklistEntriesCommand,
  RiskRuleSaveRequestSchema,
  parseBody,
} from '@transfergate/contracts';
import { CurrentOperator, RequirePermission, actorOf, type OperatorContext } from '../auth/decorators.js';
import { PanelAuthGuard } from '../auth/panel-auth.guard.js';
import { panelPaths } from '../records/panel-paths.js';
import { parseBlocklistCsv } from './blocklist-csv.js';

const RULE_ID = /^[0-9a-f-]{36}$/;

function ruleIdParam(id: string): string {
  if (!RULE_ID.test(id)) throw new DomainError('not_found', `no risk rule ${id.slice(0, 64)}`);
  return id;
}

/**
 * /panel/risk/*: risk rules (blocklists and velocity limits) and blocklist entries; every change one
 * command to the ledger, an event of the `risk-rules` stream (audited, versioned).
 */
@Controller()
@UseGuards(PanelAuthGuard)
export class RiskController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(panelPaths('risk/rules'))
  @RequirePermission('risk.view')
  async rules() {
    return { items: await this.queries.execute(new ListRiskRulesQuery()) };
  }

  @Post(panelPaths('risk/rules/save'))
  @HttpCode(201)
  @RequirePermission('risk.manage')
  async save(@Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    const input = parseBody(RiskRuleSaveRequestSchema, body);
    const result = await this.commands.execute(new ConfigureRiskRuleCommand(input, actorOf(operator)));
    return { success: true, ...result };
  }

  @Get(panelPaths('risk/rules/:id/entries'))
  @RequirePermission('risk.view')
  async entries(@Param('id') id: string, @Query() query: unknown) {
    const page = parseBody(BlocklistEntriesQuerySchema, query ?? {});
    return this.queries.execute(new ListBlocklistEntriesQuery(ruleIdParam(id), page.offset, page.limit));
  }

  @Post(panelPaths('risk/rules/:id/entries'))
  @HttpCode(201)
  @RequirePermission('risk.manage')
  async addEntries(@Param('id') id: string, @Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    const input = parseBody(BlocklistEntriesRequestSchema, body);
    const entries = 'csv' in input ? parseBlocklistCsv(input.csv) : input.entries;
    const result = await this.commands.execute(
      new AddBlocklistEntriesCommand(ruleIdParam(id), entries, actorOf(operator)),
    );
    return { success: true, ...result };
  }

  @Post(panelPaths('risk/rules/:id/entries/remove'))
  @HttpCode(201)
  @RequirePermission('risk.manage')
  async removeEntries(@Param('id') id: string, @Body() body: unknown, @CurrentOperator() operator: OperatorContext) {
    const input = parseBody(BlocklistRemoveRequestSchema, body);
    const result = await this.commands.execute(
      new RemoveBlocklistEntriesCommand(ruleIdParam(id), input.values, actorOf(operator)),
    );
    return { success: true, ...result };
  }
}
