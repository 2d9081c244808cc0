import {
  MAX_BLOCKLIST_ENTRIES,
  MAX_RISK_RULES,
  type BlocklistEntry,
  type DomainEvent,
  type EventData,
  type RiskRule,
} from '@transfergate/contracts';
import { networkOf, ipv4ToNumber } from '../risk/normalise.js';

/** A blocklist entry as the index keeps it: its expiry read once. */
export interface IndexedEntry extends BlocklistEntry {
  expiresAtMs: number;
}

/** One rule and, for a blocklist, its entries by normalised value (IPv4 networks apart). */
export interface RiskRuleState {
  rule: RiskRule;
  entries: Map<string, IndexedEntry>;
  /** IPv4 networks: prefix length → network address → entry. */
  networks: Map<number, Map<number, IndexedEntry>>;
}

/**
 * The risk rules as the `risk-rules` stream leaves them: the in-memory index requests are screened
 * against (no query per request) and what rule decisions are taken on. The fold updates the state it
 * is given (a blocklist can hold a million entries: copying it per event is not affordable); every
 * reader only reads it.
 */
export interface RiskRulesState {
  /** The stream's version: the expected version of the next change. */
  streamVersion: number;
  rules: Map<string, RiskRuleState>;
  /** Entries over all blocklists (bounded by MAX_BLOCKLIST_ENTRIES). */
  entryCount: number;
}

export function emptyRiskRules(): RiskRulesState {
  return { streamVersion: 0, rules: new Map(), entryCount: 0 };
}

type RuleEvent = Pick<DomainEvent, 'type' | 'data'>;

/** Applies one event of the `risk-rules` stream at `streamVersion`. */
export function evolveRiskRules(state: RiskRulesState, event: RuleEvent, streamVersion: number): RiskRulesState {
  state.streamVersion = streamVersion;
  switch (event.type) {
    case 'RiskRuleConfigured': {
      const rule = event.data as EventData<'RiskRuleConfigured'>;
      const current = state.rules.get(rule.ruleId);
      if (current) current.rule = rule;
      else {
        if (state.rules.size >= MAX_RISK_RULES) throw new Error(`risk-rules holds more than ${MAX_RISK_RULES} rules`);
        state.rules.set(rule.ruleId, { rule, entries: new Map(), networks: new Map() });
      }
      return state;
    }
    case 'BlocklistEntriesAdded': {
      const data = event.data as EventData<'BlocklistEntriesAdded'>;
      const target = ruleOf(state, data.ruleId);
      target.rule = { ...target.rule, version: data.version };
      for (const entry of data.entries) {
        const indexed = { ...entry, expiresAtMs: entry.expiresAt ? Date.parse(entry.expiresAt) : Infinity };
        const network = parseNetwork(entry.value);
        if (network) {
          const byBits = target.networks.get(network.bits) ?? new Map<number, IndexedEntry>();
          target.networks.set(network.bits, byBits);
          if (!byBits.has(network.address)) state.entryCount++;
          byBits.set(network.address, indexed);
        } else {
          if (!target.entries.has(entry.value)) state.entryCount++;
          target.entries.set(entry.value, indexed);
        }
      }
      if (state.entryCount > MAX_BLOCKLIST_ENTRIES)
        throw new Error(`risk-rules holds more than ${MAX_BLOCKLIST_ENTRIES} blocklist entries`);
      return state;
    }
    case 'BlocklistEntriesRemoved': {
      const data = event.data as EventData<'BlocklistEntriesRemoved'>;
      const target = ruleOf(state, data.ruleId);
      target.rule = { ...target.rule, version: data.version };
      for (const value of data.values) {
        const network = parseNetwork(value);
        const removed = network
          ? (target.networks.get(network.bits)?.delete(network.address) ?? false)
          : target.entries.delete(value);
        if (removed) state.entryCount--;
      }
      return state;
    }
    default:
      throw new Error(`unknown risk-rules event ${event.type}`);
  }
}

function ruleOf(state: RiskRulesState, ruleId: string): RiskRuleState {
  const rule = state.rules.get(ruleId);
  if (!rule) throw new Error(`risk-rules: entries of unknown rule ${ruleId}`);
  return rule;
}

/** `a.b.c.d/len` as its prefix length and network address; undefined for anything else. */
export function parseNetwork(value: string): { bits: number; address: number } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const address = ipv4ToNumber(value.slice(0, slash));
  if (address === undefined) return undefined;
  const bits = Number(value.slice(slash + 1));
  return { bits, address: networkOf(address, bits) };
}

/** The rule's live entry for a normalised value (an IPv4 address also by the networks holding it). */
export function blocklistEntryFor(rule: RiskRuleState, value: string, nowMs: number): IndexedEntry | undefined {
  const exact = rule.entries.get(value);
  if (exact && exact.expiresAtMs > nowMs) return exact;
  if (rule.networks.size === 0) return undefined;
  const address = ipv4ToNumber(value);
  if (address === undefined) return undefined;
  for (const [bits, byNetwork] of rule.networks) {
    const entry = byNetwork.get(networkOf(address, bits));
    if (entry && entry.expiresAtMs > nowMs) return entry;
  }
  return undefined;
}

/** Whether the rule lists this normalised value (an IPv4 network as listed, not by containment). */
export function holdsValue(rule: RiskRuleState, value: string): boolean {
  const network = parseNetwork(value);
  return network ? (rule.networks.get(network.bits)?.has(network.address) ?? false) : rule.entries.has(value);
}
