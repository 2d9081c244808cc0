import {
  domainEvent,
  type CustomerRef,
  type DomainEvent,
  type RiskAction,
  type RiskHit,
  type RiskRule,
} from '@transfergate/contracts';
import { blocklistEntryFor, type RiskRulesState } from '../domain/risk-rules.js';
import { normaliseBlocklistValue } from '../risk/normalise.js';
import type { CustomerActivity } from '../risk/velocity-tracker.js';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/** What a new deposit or withdrawal is screened by. */
export interface ScreenedRequest {
  kind: 'deposit' | 'withdrawal';
  merchantId: string;
  infrastructureId: string;
  amountKurus: bigint;
  customer: CustomerRef;
  /** A withdrawal's destination IBAN. */
  iban?: string;
  /** The caller's address, as the gateway saw it. */
  ip?: string;
}

/** The hits, and what they mean together (refuse over hold over flag); undefined action when nothing hit. */
export interface Screening {
  action: RiskAction | undefined;
  hits: RiskHit[];
}

/** Together, the strongest action wins: refuse, then hold, then flag. */
const ACTION_WEIGHT: Record<RiskAction, number> = { flag: 1, hold: 2, refuse: 3 };

export const NO_HITS: Screening = Object.freeze({ action: undefined, hits: [] }) as Screening;

/**
 * Screens a request against every active rule whose scope holds it: blocklists by the request's
 * normalised fields, velocity limits by the customer's accepted requests in the window (`activity`,
 * this request not counted yet). Pure: the rules and the activity are read, never changed.
 */
export function screenRequest(
  request: ScreenedRequest,
  rules: RiskRulesState,
  activity: CustomerActivity | undefined,
  nowMs: number,
): Screening {
  if (rules.rules.size === 0) return NO_HITS;
  let hits: RiskHit[] | undefined;
  let action: RiskAction | undefined;
  for (const state of rules.rules.values()) {
    const rule = state.rule;
    if (!rule.active || !inScope(rule, request)) continue;
    const hit =
      rule.check.kind === 'blocklist'
        ? blocklisted(state, rule.check.field, request, nowMs)
        : overLimit(rule.check.limit, BigInt(rule.check.value), request, activity, nowMs);
    if (!hit) continue;
    (hits ??= []).push({ ruleId: rule.ruleId, version: rule.version, action: rule.action });
    if (action === undefined || ACTION_WEIGHT[rule.action] > ACTION_WEIGHT[action]) action = rule.action;
  }
  return hits ? { action, hits } : NO_HITS;
}

function inScope(rule: RiskRule, request: ScreenedRequest): boolean {
  const scope = rule.scope;
  if (scope.level === 'global') return true;
  if (scope.level === 'merchant') return scope.id === request.merchantId;
  return scope.id === request.infrastructureId;
}

function blocklisted(
  state: Parameters<typeof blocklistEntryFor>[0],
  field: Parameters<typeof normaliseBlocklistValue>[0],
  request: ScreenedRequest,
  nowMs: number,
): boolean {
  for (const raw of fieldValues(field, request)) {
    const value = normaliseBlocklistValue(field, raw);
    if (value !== undefined && blocklistEntryFor(state, value, nowMs)) return true;
  }
  return false;
}

/** The request's values a blocklist of `field` compares (a name: the customer's and the sender's). */
function fieldValues(field: Parameters<typeof normaliseBlocklistValue>[0], request: ScreenedRequest): string[] {
  const c = request.customer;
  switch (field) {
    case 'fullName':
      return c.senderName ? [c.fullName, c.senderName] : [c.fullName];
    case 'userId':
      return c.userId ? [c.userId] : [];
    case 'username':
      return c.username ? [c.username] : [];
    case 'iban':
      return request.iban ? [request.iban] : [];
    case 'ip':
      return request.ip ? [request.ip] : [];
    case 'tckn':
      return c.nationalId ? [c.nationalId] : [];
    case 'email':
      return c.email ? [c.email] : [];
    case 'phone':
      return c.phone ? [c.phone] : [];
  }
}

function overLimit(
  limit: string,
  value: bigint,
  request: ScreenedRequest,
  activity: CustomerActivity | undefined,
  nowMs: number,
): boolean {
  const deposit = request.kind === 'deposit';
  switch (limit) {
    case 'depositsPerHour':
      return deposit && BigInt(countSince(activity?.deposits, nowMs - HOUR_MS)) >= value;
    case 'depositsPerDay':
      return deposit && BigInt(countSince(activity?.deposits, nowMs - DAY_MS)) >= value;
    case 'depositAmountPerDay':
      return deposit && request.amountKurus + dayAmountKurus(activity, nowMs) > value;
    case 'firstDeposit':
      return deposit && !activity?.deposited && request.amountKurus > value;
    case 'withdrawalsPerDay':
      return !deposit && BigInt((activity?.withdrawalsAtMs ?? []).filter((at) => at > nowMs - DAY_MS).length) >= value;
    case 'withdrawalAfterDeposit': {
      const last = activity?.deposits.at(-1);
      return !deposit && last !== undefined && nowMs - last.atMs < Number(value) * 60_000;
    }
    default:
      return false;
  }
}

/** Items newer than `sinceMs` of a list ordered by time (all of it when its oldest is, the usual case). */
function countSince(list: Array<{ atMs: number }> | undefined, sinceMs: number): number {
  if (!list || list.length === 0) return 0;
  if (list[0]!.atMs > sinceMs) return list.length;
  let n = 0;
  for (let i = list.length - 1; i >= 0 && list[i]!.atMs > sinceMs; i--) n++;
  return n;
}

/** The customer's deposits of the last 24 hours, in kuruş (the kept sum when every kept one is that recent). */
function dayAmountKurus(activity: CustomerActivity | undefined, nowMs: number): bigint {
  if (!activity || activity.deposits.length === 0) return 0n;
  const since = nowMs - DAY_MS;
  if (activity.deposits[0]!.atMs > since) return activity.depositsKurus;
  let sum = 0n;
  for (const d of activity.deposits) if (d.atMs > since) sum += d.amountKurus;
  return sum;
}

/** The hold or flag a screening leaves in the new transaction's stream, after its request event. */
export function screenedEvent(
  request: { transactionId: string; merchantId: string; externalId: string; kind: 'deposit' | 'withdrawal' },
  screening: Screening,
): DomainEvent<'RiskRuleHit'> {
  return domainEvent('RiskRuleHit', {
    transactionId: request.transactionId,
    merchantId: request.merchantId,
    externalId: request.externalId,
    kind: request.kind,
    action: screening.action === 'hold' ? 'hold' : 'flag',
    hits: screening.hits,
  });
}
