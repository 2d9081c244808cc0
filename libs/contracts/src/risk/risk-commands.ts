import { Command, Query } from '@nestjs/cqrs';
import type { ActorRef, TransactionView } from '../commands/transaction-commands.js';
import type { BlocklistEntry, RiskRule } from './risk-events.js';

/** A rule as the ledger's index holds it, with its blocklist's size. */
export interface RiskRuleView extends RiskRule {
  entryCount: number;
}

export interface RiskRuleResult {
  ruleId: string;
  version: number;
  changed: boolean;
}

/** Creates (no ruleId) or changes a rule: the whole rule but its id and version. */
export class ConfigureRiskRuleCommand extends Command<RiskRuleResult> {
  constructor(
    readonly rule: Omit<RiskRule, 'ruleId' | 'version'> & { ruleId?: string },
    readonly actor: ActorRef,
  ) {
    super();
  }
}

/** Adds (or replaces, by value) entries of a blocklist rule; values are normalised by the ledger. */
export class AddBlocklistEntriesCommand extends Command<RiskRuleResult & { added: number }> {
  constructor(
    readonly ruleId: string,
    readonly entries: BlocklistEntry[],
    readonly actor: ActorRef,
  ) {
    super();
  }
}

export class RemoveBlocklistEntriesCommand extends Command<RiskRuleResult & { removed: number }> {
  constructor(
    readonly ruleId: string,
    readonly values: string[],
    readonly actor: ActorRef,
  ) {
    super();
  }
}

/** Releases a transaction a risk rule holds: it goes on from where it started. */
export class ReleaseRiskHoldCommand extends Command<TransactionView> {
  constructor(readonly input: { transactionId: string; actor: ActorRef }) {
    super();
  }
}

/** Every rule (the ledger's index, brought up to date first). */
export class ListRiskRulesQuery extends Query<RiskRuleView[]> {}

/** One blocklist's entries, a page at a time (normalised values). */
export class ListBlocklistEntriesQuery extends Query<{ entries: BlocklistEntry[]; total: number }> {
  constructor(
    readonly ruleId: string,
    readonly offset: number,
    readonly limit: number,
  ) {
    super();
  }
}
