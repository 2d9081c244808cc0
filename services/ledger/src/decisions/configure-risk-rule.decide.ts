import {
  DomainError,
  MAX_BLOCKLIST_ENTRIES,
  MAX_BLOCKLIST_ENTRIES_PER_EVENT,
  MAX_BLOCKLIST_IMPORT_ROWS,
  MAX_RISK_RULES,
  STREAMS,
  domainEvent,
  type BlocklistEntry,
  type ConfigureRiskRuleCommand,
  type DomainEvent,
  type RiskRule,
  type RiskRuleResult,
} from '@transfergate/contracts';
import { holdsValue, type RiskRulesState } from '../domain/risk-rules.js';
import { normaliseBlocklistValue } from '../risk/normalise.js';
import { MAX_REQUESTS_PER_CUSTOMER, VELOCITY_WINDOW_MS } from '../risk/velocity-tracker.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import type { Decided } from './decision.js';

export interface RiskRuleDecision<R> {
  writes: PendingWrite[];
  result: R;
}

/** The problems of an import listed back, at most this many. */
const MAX_LISTED_PROBLEMS = 20;

function rulesWrite(state: RiskRulesState, events: DomainEvent[]): PendingWrite {
  return { streamId: STREAMS.riskRules(), expectedVersion: state.streamVersion, events };
}

/**
 * A rule created (no id: `newRuleId`) or changed: the whole rule, one version up. An event only when
 * something changes. A blocklist with entries keeps its field (its entries are normalised for it);
 * a velocity count or amount must be positive.
 */
export function decideConfigureRiskRule(
  input: ConfigureRiskRuleCommand['rule'],
  state: RiskRulesState,
  newRuleId: string,
): Decided<RiskRuleDecision<RiskRuleResult>> {
  const current = input.ruleId ? state.rules.get(input.ruleId) : undefined;
  if (input.ruleId && !current) return new DomainError('not_found', `no risk rule ${input.ruleId}`);
  if (!current && state.rules.size >= MAX_RISK_RULES)
    return new DomainError('validation_failed', `invalid request: at most ${MAX_RISK_RULES} risk rules`);
  if (input.check.kind === 'velocity') {
    const refusal = velocityValueRefusal(input.check.limit, BigInt(input.check.value));
    if (refusal) return refusal;
  }
  if (current && (current.entries.size > 0 || current.networks.size > 0)) {
    const was = current.rule.check;
    if (input.check.kind !== 'blocklist' || was.kind !== 'blocklist' || was.field !== input.check.field)
      return new DomainError(
        'validation_failed',
        "invalid request: a blocklist's field cannot change while it has entries",
      );
  }
  const ruleId = current?.rule.ruleId ?? newRuleId;
  const next: RiskRule = {
    ruleId,
    version: (current?.rule.version ?? 0) + 1,
    name: input.name,
    scope: input.scope,
    check: input.check,
    action: input.action,
    active: input.active,
  };
  if (current && sameRule(current.rule, next))
    return { writes: [], result: { ruleId, version: current.rule.version, changed: false } };
  return {
    writes: [rulesWrite(state, [domainEvent('RiskRuleConfigured', next)])],
    result: { ruleId, version: next.version, changed: true },
  };
}

/** Count limits the velocity memory can count (it keeps MAX_REQUESTS_PER_CUSTOMER per customer). */
const COUNT_LIMITS: ReadonlySet<string> = new Set(['depositsPerHour', 'depositsPerDay', 'withdrawalsPerDay']);
/** The velocity memory's window, in minutes (a withdrawal-after-deposit limit looks no further back). */
const WINDOW_MINUTES = VELOCITY_WINDOW_MS / 60_000;

function velocityValueRefusal(limit: string, value: bigint): DomainError | undefined {
  if (value <= 0n) return new DomainError('validation_failed', 'invalid request: a velocity limit must be positive');
  if (COUNT_LIMITS.has(limit) && value > BigInt(MAX_REQUESTS_PER_CUSTOMER))
    return new DomainError(
      'validation_failed',
      `invalid request: a count limit is at most ${MAX_REQUESTS_PER_CUSTOMER}`,
    );
  if (limit === 'withdrawalAfterDeposit' && value > BigInt(WINDOW_MINUTES))
    return new DomainError('validation_failed', `invalid request: at most ${WINDOW_MINUTES} minutes`);
  return undefined;
}

function sameRule(a: RiskRule, b: RiskRule): boolean {
  const { version: _a, ...restA } = a;
  const { version: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}

/**
 * Entries added to a blocklist (a CSV import, or one entry): each value normalised for the list's
 * field, a value that cannot be one refused with its row; one event per MAX_BLOCKLIST_ENTRIES_PER_EVENT
 * entries, each a version of the rule. A value already listed is replaced (its reason and expiry).
 */
export function decideAddBlocklistEntries(
  ruleId: string,
  entries: BlocklistEntry[],
  state: RiskRulesState,
): Decided<RiskRuleDecision<RiskRuleResult & { added: number }>> {
  const target = state.rules.get(ruleId);
  if (!target) return new DomainError('not_found', `no risk rule ${ruleId}`);
  const check = target.rule.check;
  if (check.kind !== 'blocklist') return new DomainError('validation_failed', 'invalid request: not a blocklist rule');
  if (entries.length === 0 || entries.length > MAX_BLOCKLIST_IMPORT_ROWS)
    return new DomainError('validation_failed', `invalid request: 1..${MAX_BLOCKLIST_IMPORT_ROWS} entries`);
  const normalised = new Map<string, BlocklistEntry>();
  const problems: string[] = [];
  for (const [row, entry] of entries.entries()) {
    const value = normaliseBlocklistValue(check.field, entry.value);
    if (value === undefined) {
      if (problems.length < MAX_LISTED_PROBLEMS) problems.push(`entry ${row + 1}: not a valid ${check.field}`);
      else break;
      continue;
    }
    normalised.set(value, { ...entry, value });
  }
  if (problems.length > 0) return new DomainError('validation_failed', `invalid request: ${problems[0]}`, { problems });
  if (state.entryCount + normalised.size > MAX_BLOCKLIST_ENTRIES)
    return new DomainError(
      'validation_failed',
      `invalid request: blocklists hold at most ${MAX_BLOCKLIST_ENTRIES} entries`,
    );
  const all = [...normalised.values()];
  const events: DomainEvent[] = [];
  let version = target.rule.version;
  for (let at = 0; at < all.length; at += MAX_BLOCKLIST_ENTRIES_PER_EVENT) {
    version++;
    const chunk = all.slice(at, at + MAX_BLOCKLIST_ENTRIES_PER_EVENT);
    events.push(domainEvent('BlocklistEntriesAdded', { ruleId, version, entries: chunk }));
  }
  return { writes: [rulesWrite(state, events)], result: { ruleId, version, changed: true, added: all.length } };
}

/** Entries removed from a blocklist by value (normalised as the list's field); unknown values are ignored. */
export function decideRemoveBlocklistEntries(
  ruleId: string,
  values: string[],
  state: RiskRulesState,
): Decided<RiskRuleDecision<RiskRuleResult & { removed: number }>> {
  const target = state.rules.get(ruleId);
  if (!target) return new DomainError('not_found', `no risk rule ${ruleId}`);
  const check = target.rule.check;
  if (check.kind !== 'blocklist') return new DomainError('validation_failed', 'invalid request: not a blocklist rule');
  if (values.length > MAX_BLOCKLIST_ENTRIES_PER_EVENT)
    return new DomainError('validation_failed', `invalid request: at most ${MAX_BLOCKLIST_ENTRIES_PER_EVENT} values`);
  const listed = [
    ...new Set(values.map((v) => normaliseBlocklistValue(check.field, v)).filter((v) => v !== undefined)),
  ].filter((v) => holdsValue(target, v));
  const version = target.rule.version;
  if (listed.length === 0) return { writes: [], result: { ruleId, version, changed: false, removed: 0 } };
  return {
    writes: [
      rulesWrite(state, [domainEvent('BlocklistEntriesRemoved', { ruleId, version: version + 1, values: listed })]),
    ],
    result: { ruleId, version: version + 1, changed: true, removed: listed.length },
  };
}
