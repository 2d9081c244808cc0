import {
  H2hCallbackSchema,
  InfrastructureCallbackSchema,
  MerchantCallbackSchema,
  Md5CallbackSchema,
} from '@transfergate/contracts';
import { standardWebhookSignature, webhookIdFor } from '@transfergate/callback-dispatcher';
import {
  buildCallbackBody,
  type CallbackFacts,
} from '../../services/callback-dispatcher/src/enqueue/callback-bodies.js';
import {
  MAX_RETRY_AFTER_MS,
  MAX_RETRY_JITTER_MS,
  jitteredDelay,
  nextAttemptDelay,
  parseRetryAfter,
} from '../../services/callback-dispatcher/src/delivery/retry-policy.js';
import { expectedWebhookSignature, md5 } from './callback-fixture.js';

describe('callback dispatcher units', () => {
  it('Retry-After: delay-seconds, HTTP date, unreadable, capped at 24 h', () => {
    const now = Date.parse('2025-05-01T12:00:00Z');
    expect(parseRetryAfter('1', now)).toBe(1_000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 May 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 01 May 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('999999999', now)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('the schedule: entry i before attempt i+1, Retry-After wins when longer, undefined after the last', () => {
    const schedule = [0, 5_000, 300_000];
    expect(nextAttemptDelay(schedule, 1, undefined)).toBe(5_000);
    expect(nextAttemptDelay(schedule, 1, 60_000)).toBe(60_000);
    expect(nextAttemptDelay(schedule, 2, 1_000)).toBe(300_000);
    expect(nextAttemptDelay(schedule, 3, undefined)).toBeUndefined();
  });

  it('jitter: adds at most ratio·delay (capped by MAX_RETRY_JITTER_MS), never less than the schedule, deterministic with an injected random', () => {
    const at = (r: number) => ({ ratio: 0.2, random: () => r });
    expect(jitteredDelay(5_000, at(0))).toBe(5_000);
    expect(jitteredDelay(5_000, at(0.5))).toBe(5_500);
    expect(jitteredDelay(5_000, at(0.999999))).toBe(6_000);
    // An immediate retry stays immediate; no ratio, no jitter; a broken random is clamped.
    expect(jitteredDelay(0, at(1))).toBe(0);
    expect(jitteredDelay(5_000, { ratio: 0, random: () => 1 })).toBe(5_000);
    expect(jitteredDelay(5_000, at(7))).toBe(6_000);
    expect(jitteredDelay(5_000, at(-3))).toBe(5_000);
    // 10 h: +20 % would be +2 h; the spread is capped at 1 h.
    const tenHoursMs = 36_000_000;
    expect(jitteredDelay(tenHoursMs, at(0))).toBe(tenHoursMs);
    expect(jitteredDelay(tenHoursMs, at(1))).toBe(tenHoursMs + MAX_RETRY_JITTER_MS);
    // Many draws stay within bounds and are spread (not all equal).
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const d = jitteredDelay(300_000, { ratio: 0.2, random: Math.random });
      expect(d).toBeGreaterThanOrEqual(300_000);
      expect(d).toBeLessThanOrEqual(360_000);
      seen.add(d);
    }
    expect(seen.size).toBeGreaterThan(100);
  });

  it('the schedule with jitter: the delay is spread, a longer Retry-After is still the floor', () => {
    const schedule = [0, 5_000, 300_000];
    expect(nextAttemptDelay(schedule, 1, undefined, { ratio: 0.2, random: () => 0.5 })).toBe(5_500);
    expect(nextAttemptDelay(schedule, 2, undefined, { ratio: 0.2, random: () => 1 })).toBe(360_000);
    expect(nextAttemptDelay(schedule, 1, 60_000, { ratio: 0.2, random: () => 1 })).toBe(60_000);
    expect(nextAttemptDelay(schedule, 3, undefined, { ratio: 0.2, random: () => 0 })).toBeUndefined();
  });

  it('webhook ids are uuid v5 of the event id, the same ids as before the uuid package replaced ours', () => {
    // Ids already in cb_deliveries and at receivers must not change: pinned from the hand-written version.
    expect(webhookIdFor('0b9c3c1e-8a45-4a53-9a3a-1b2c3d4e5f60')).toBe('b2d99a40-4e62-58f9-a201-4d65a19912b5');
  });

  it('webhook ids are UUID v5 of the event id: stable and distinct', () => {
    const a = webhookIdFor('0b9c3c1e-8a45-4a53-9a3a-1b2c3d4e5f60');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(webhookIdFor('0B9C3C1E-8A45-4A53-9A3A-1B2C3D4E5F60')).toBe(a);
    expect(webhookIdFor('0b9c3c1e-8a45-4a53-9a3a-1b2c3d4e5f61')).not.toBe(a);
  });

  it('the Standard Webhooks signature matches an independent computation', () => {
    const body = '{"a":1}';
    expect(standardWebhookSignature('sk_1', 'msg', 1714564800, body)).toBe(
      expectedWebhookSignature('sk_1', 'msg', '1714564800', body),
    );
  });

  const facts: CallbackFacts = {
    type: 'withdrawal',
    outcome: 'rejected',
    number: 42,
    externalId: 'T-42',
    amountKurus: 1_050n,
    customer: { fullName: 'Ali Veli', username: 'ali' },
    echo: {},
    reason: 'no',
    decidedAt: '2025-05-01T12:00:00.000Z',
  };

  it('bodies satisfy the contract schemas for every format and outcome', () => {
    for (const outcome of ['approved', 'rejected'] as const) {
      for (const type of ['deposit', 'withdrawal'] as const) {
        const f = { ...facts, outcome, type };
        expect(MerchantCallbackSchema.safeParse(buildCallbackBody('merchant', f, () => 's')).success).toBe(true);
        expect(H2hCallbackSchema.safeParse(buildCallbackBody('h2h', f, () => 's')).success).toBe(true);
        expect(InfrastructureCallbackSchema.safeParse(buildCallbackBody('infrastructure', f, () => 's')).success).toBe(
          true,
        );
        expect(Md5CallbackSchema.safeParse(buildCallbackBody('md5', f, () => 's')).success).toBe(true);
      }
    }
    expect(buildCallbackBody('infrastructure', facts, () => 's')).toMatchObject({
      CustomerMemberId: 'ali',
      SecurityKey: '',
      OperationGuidBack: '',
      Amount: 10.5,
    });
    expect(buildCallbackBody('md5', facts, () => 'sec')).toMatchObject({
      signature: md5('T-42declined10.5withdrawalsec'),
    });
    expect(buildCallbackBody('h2h', { ...facts, outcome: 'approved' }, () => 's')).not.toHaveProperty('reason');
  });
});
