import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@transfergate/contracts';
import { presentedCredentials } from '../auth/credentials.js';
import type { GatewaySettings } from '../gateway.settings.js';
import { CallerBudget, type BudgetRefusal, type CallerBudgetLimits } from './caller-budget.js';

/** Failed authentications per minute, per source IP and per API key (never more than the rate limit). */
export const AUTH_FAILURES_PER_MINUTE = 20;
/** Keys, IPs and key-IP pairs tracked at once in each budget. */
const MAX_TRACKED = 100_000;
/** Longer than any real key: counted per IP only, never kept as a key. */
const MAX_KEY_LENGTH = 256;
/**
 * Panel routes and incoming webhooks are not gateway API calls: their refusals are not
 * authentication failures of a key (a webhook body may carry an `apiKey` of the upstream's own).
 */
const NOT_API = /^(\/api)?\/(panel\/|(deposit|withdraw|withdrawal)\/callback\/)/;

interface CallerState {
  budget: CallerBudget;
  reply: FastifyReply;
  /** Charged to a key as verified, or counted as a failure: either, once. */
  settled: boolean;
}

const callers = new WeakMap<FastifyRequest, CallerState>();

/**
 * The gateway's request budgets (caller-budget.ts): per API key for verified requests, per source IP
 * and per key for failed authentications. The charging happens where credentials are checked
 * (ProviderAuthService calls the three functions below with the request); this plugin only hands each
 * request the process's budget, and counts as failures the API requests that name a key but are
 * refused before their credentials are checked (malformed). Read live: a limit saved in the panel
 * applies to the next request; 0 turns every budget off. Refusals are 429 `rate_limited` in the
 * form's shape with Retry-After.
 */
export async function registerProviderRateLimit(fastify: FastifyInstance, settings: GatewaySettings): Promise<void> {
  // An unset limit must not silently become some default: refuse to start.
  if (!Number.isInteger(settings.rateLimitPerMinute) || settings.rateLimitPerMinute < 0) {
    throw new RangeError(`rateLimitPerMinute must be a non-negative integer, got ${settings.rateLimitPerMinute}`);
  }
  const limits = (): CallerBudgetLimits => ({
    verifiedPerKey: settings.rateLimitPerMinute,
    failuresPerIp: Math.min(settings.rateLimitPerMinute, AUTH_FAILURES_PER_MINUTE),
    failuresPerKey: Math.min(settings.rateLimitPerMinute, AUTH_FAILURES_PER_MINUTE),
    windowMs: 60_000,
    maxTracked: MAX_TRACKED,
  });
  const budget = new CallerBudget(limits);
  fastify.addHook('onRequest', (request, reply, done) => {
    if (settings.rateLimitPerMinute > 0) callers.set(request, { budget, reply, settled: false });
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const state = callers.get(request);
    if (state && !state.settled && [400, 401, 403].includes(reply.statusCode) && !NOT_API.test(request.url)) {
      const apiKey = namedKey(request);
      if (apiKey !== undefined) state.budget.failedRequest(boundedKey(apiKey), request.ip);
    }
    done();
  });
}

function namedKey(request: FastifyRequest): string | undefined {
  try {
    return presentedCredentials(request).apiKey;
  } catch {
    return undefined;
  }
}

const boundedKey = (apiKey: string | undefined) =>
  apiKey !== undefined && apiKey.length <= MAX_KEY_LENGTH ? apiKey : undefined;

function refusalError(state: CallerState, refusal: BudgetRefusal): DomainError {
  void state.reply.header('retry-after', String(refusal.retryAfterSeconds));
  return new DomainError('rate_limited', refusal.message);
}

/** Before the credentials are checked: throws 429 when the caller's IP has failed too often. */
export function gateBeforeVerification(request: FastifyRequest): void {
  const state = callers.get(request);
  const refusal = state?.budget.beforeVerification(request.ip);
  if (state && refusal) {
    state.settled = true;
    throw refusalError(state, refusal);
  }
}

/** The credentials were right: charges the key; throws 429 past its quota or while it is guessed from here. */
export function chargeVerified(request: FastifyRequest, apiKey: string): void {
  const state = callers.get(request);
  if (!state || state.settled) return;
  state.settled = true;
  const refusal = state.budget.verifiedRequest(apiKey, request.ip);
  if (refusal) throw refusalError(state, refusal);
}

/** The credentials were wrong: counts the failure; returns the 429 to answer instead once past a limit. */
export function chargeFailed(request: FastifyRequest, apiKey: string | undefined): DomainError | undefined {
  const state = callers.get(request);
  if (!state || state.settled) return undefined;
  state.settled = true;
  const refusal = state.budget.failedRequest(boundedKey(apiKey), request.ip);
  return refusal ? refusalError(state, refusal) : undefined;
}
