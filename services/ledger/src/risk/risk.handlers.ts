import { randomUUID } from 'node:crypto';
import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  AddBlocklistEntriesCommand,
  ConfigureRiskRuleCommand,
  ListBlocklistEntriesQuery,
  ListRiskRulesQuery,
  RemoveBlocklistEntriesCommand,
  type ActorRef,
  type BlocklistEntry,
  type RiskRuleResult,
  type RiskRuleView,
} from '@transfergate/contracts';
import { WrongExpectedVersionError } from '@transfergate/event-store';
import {
  decideAddBlocklistEntries,
  decideConfigureRiskRule,
  decideRemoveBlocklistEntries,
  type RiskRuleDecision,
} from '../decisions/configure-risk-rule.decide.js';
import { orThrow, type Decided } from '../decisions/decision.js';
import type { RiskRulesState } from '../domain/risk-rules.js';
import { MAX_CONFLICT_RETRIES } from '../ledger.settings.js';
import { LedgerRepository } from '../persistence/ledger-repository.js';
import { RiskIndex } from './risk-index.js';
import { ReleaseRiskHoldHandler } from '../commands/release-risk-hold.handler.js';

/** Entries one page of ListBlocklistEntriesQuery answers at most. */
export const MAX_ENTRIES_PAGE = 500;

/** Load (the index, brought up to the stream's version), decide, append; again on a concurrent change. */
async function loadDecideAppend<R>(
  index: RiskIndex,
  repository: LedgerRepository,
  actor: ActorRef,
  decide: (state: RiskRulesState) => Decided<RiskRuleDecision<R>>,
): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    const decision = orThrow(decide(await index.rules()));
    if (decision.writes.length === 0) return decision.result;
    try {
      await repository.append(decision.writes, actor);
      await index.refresh();
      return decision.result;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || attempt >= MAX_CONFLICT_RETRIES) throw error;
    }
  }
}

@CommandHandler(ConfigureRiskRuleCommand)
export class ConfigureRiskRuleHandler implements ICommandHandler<ConfigureRiskRuleCommand, RiskRuleResult> {
  constructor(
    private readonly index: RiskIndex,
    private readonly repository: LedgerRepository,
  ) {}

  execute(command: ConfigureRiskRuleCommand): Promise<RiskRuleResult> {
    const newRuleId = randomUUID();
    return loadDecideAppend(this.index, this.repository, command.actor, (state) =>
      decideConfigureRiskRule(command.rule, state, newRuleId),
    );
  }
}

@CommandHandler(AddBlocklistEntriesCommand)
export class AddBlocklistEntriesHandler implements ICommandHandler<
  AddBlocklistEntriesCommand,
  RiskRuleResult & { added: number }
> {
  constructor(
    private readonly index: RiskIndex,
    private readonly repository: LedgerRepository,
  ) {}

  execute(command: AddBlocklistEntriesCommand): Promise<RiskRuleResult & { added: number }> {
    return loadDecideAppend(this.index, this.repository, command.actor, (state) =>
      decideAddBlocklistEntries(command.ruleId, command.entries, state),
    );
  }
}

@CommandHandler(RemoveBlocklistEntriesCommand)
export class RemoveBlocklistEntriesHandler implements ICommandHandler<
  RemoveBlocklistEntriesCommand,
  RiskRuleResult & { removed: number }
> {
  constructor(
    private readonly index: RiskIndex,
    private readonly repository: LedgerRepository,
  ) {}

  execute(command: RemoveBlocklistEntriesCommand): Promise<RiskRuleResult & { removed: number }> {
    return loadDecideAppend(this.index, this.repository, command.actor, (state) =>
      decideRemoveBlocklistEntries(command.ruleId, command.values, state),
    );
  }
}

@QueryHandler(ListRiskRulesQuery)
export class ListRiskRulesHandler implements IQueryHandler<ListRiskRulesQuery, RiskRuleView[]> {
  constructor(private readonly index: RiskIndex) {}

  async execute(): Promise<RiskRuleView[]> {
    const state = await this.index.rules();
    return [...state.rules.values()].map(({ rule, entries, networks }) => ({
      ...rule,
      entryCount: entries.size + [...networks.values()].reduce((n, byNetwork) => n + byNetwork.size, 0),
    }));
  }
}

@QueryHandler(ListBlocklistEntriesQuery)
export class ListBlocklistEntriesHandler implements IQueryHandler<
  ListBlocklistEntriesQuery,
  { entries: BlocklistEntry[]; total: number }
> {
  constructor(private readonly index: RiskIndex) {}

  async execute(query: ListBlocklistEntriesQuery): Promise<{ entries: BlocklistEntry[]; total: number }> {
    const rule = (await this.index.rules()).rules.get(query.ruleId);
    if (!rule) return { entries: [], total: 0 };
    const all = [
      ...rule.entries.values(),
      ...[...rule.networks.values()].flatMap((byNetwork) => [...byNetwork.values()]),
    ];
    const limit = Math.min(Math.max(query.limit, 1), MAX_ENTRIES_PAGE);
    const page = all.slice(Math.max(query.offset, 0), Math.max(query.offset, 0) + limit);
    return {
      entries: page.map(({ value, reason, expiresAt }) => ({ value, reason, ...(expiresAt ? { expiresAt } : {}) })),
      total: all.length,
    };
  }
}

export const RISK_LEDGER_PROVIDERS = [
  RiskIndex,
  ReleaseRiskHoldHandler,
  ConfigureRiskRuleHandler,
  AddBlocklistEntriesHandler,
  RemoveBlocklistEntriesHandler,
  ListRiskRulesHandler,
  ListBlocklistEntriesHandler,
];
