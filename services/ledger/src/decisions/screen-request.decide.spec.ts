import {
  domainEvent,
  type BlocklistField,
  type RiskAction,
  type RiskScope,
  type VelocityLimit,
} from '@transfergate/contracts';
import { emptyRiskRules, evolveRiskRules, type RiskRulesState } from '../domain/risk-rules.js';
import { VelocityTracker, customerKey } from '../risk/velocity-tracker.js';
import { screenRequest, type ScreenedRequest } from './screen-request.decide.js';

const NOW = Date.parse('2026-03-02T12:00:00.000Z');
const MIN = 60_000;

const deposit = (change: Partial<ScreenedRequest> = {}): ScreenedRequest => ({
  kind: 'deposit',
  merchantId: 'm-1',
  infrastructureId: 'i-1',
  amountKurus: 10_000n,
  customer: { fullName: 'Ayşe Yılmaz', userId: 'u-7', username: 'ayse7' },
  ip: '203.0.113.9',
  ...change,
});
const withdrawal = (change: Partial<ScreenedRequest> = {}) =>
  deposit({ kind: 'withdrawal', iban: 'TR330006100519786457841326', ...change });

let n = 0;
/** given: one rule (and a blocklist's entries) on the `risk-rules` stream. */
function givenRule(
  check: { field: BlocklistField; values?: string[]; expiresAt?: string } | { limit: VelocityLimit; value: string },
  action: RiskAction = 'refuse',
  scope: RiskScope = { level: 'global' },
): RiskRulesState {
  const ruleId = `rule-${++n}`;
  const state = evolveRiskRules(
    emptyRiskRules(),
    domainEvent('RiskRuleConfigured', {
      ruleId,
      version: 1,
      name: 'r',
      scope,
      check: 'field' in check ? { kind: 'blocklist', field: check.field } : { kind: 'velocity', ...check },
      action,
      active: true,
    }),
    1,
  );
  if ('field' in check && check.values) {
    const entries = check.values.map((value) => ({
      value,
      reason: 'test',
      ...(check.expiresAt ? { expiresAt: check.expiresAt } : {}),
    }));
    evolveRiskRules(state, domainEvent('BlocklistEntriesAdded', { ruleId, version: 2, entries }), 2);
  }
  return state;
}

const actionOf = (state: RiskRulesState, request: ScreenedRequest, tracker = new VelocityTracker()) =>
  screenRequest(request, state, tracker.activity(customerKey(request.merchantId, request.customer)), NOW).action;

describe('screenRequest: blocklists', () => {
  it.each<[BlocklistField, string, Partial<ScreenedRequest>]>([
    ['fullName', 'ayse yilmaz', {}],
    ['fullName', 'mehmet demir', { customer: { fullName: 'X', senderName: 'MEHMET DEMİR' } }],
    ['userId', 'u-7', {}],
    ['username', 'ayse7', {}],
    ['ip', '203.0.113.9', {}],
    ['ip', '203.0.113.0/24', {}],
    ['tckn', '10000000146', { customer: { fullName: 'X', nationalId: '10000000146' } }],
    ['email', 'a@b.co', { customer: { fullName: 'X', email: 'A@B.co' } }],
    ['phone', '5321234567', { customer: { fullName: 'X', phone: '+90 532 123 45 67' } }],
  ])('a %s blocklist (%s) refuses and flags a matching deposit', (field, value, change) => {
    expect(actionOf(givenRule({ field, values: [value] }), deposit(change))).toBe('refuse');
    expect(actionOf(givenRule({ field, values: [value] }, 'flag'), deposit(change))).toBe('flag');
    expect(actionOf(givenRule({ field, values: ['someone else'] }), deposit(change))).toBeUndefined();
  });

  it('an IBAN blocklist screens a withdrawal by its destination', () => {
    const state = givenRule({ field: 'iban', values: ['TR330006100519786457841326'] });
    expect(actionOf(state, withdrawal())).toBe('refuse');
    expect(actionOf(state, withdrawal({ iban: 'TR930006200000000006295317' }))).toBeUndefined();
  });

  it('an expired entry no longer matches', () => {
    const past = givenRule({ field: 'userId', values: ['u-7'], expiresAt: '2026-03-02T11:59:59.000Z' });
    expect(actionOf(past, deposit())).toBeUndefined();
  });

  it('a rule applies only inside its scope, and an inactive rule never', () => {
    expect(
      actionOf(givenRule({ field: 'userId', values: ['u-7'] }, 'refuse', { level: 'merchant', id: 'm-2' }), deposit()),
    ).toBeUndefined();
    expect(
      actionOf(givenRule({ field: 'userId', values: ['u-7'] }, 'refuse', { level: 'merchant', id: 'm-1' }), deposit()),
    ).toBe('refuse');
    expect(
      actionOf(
        givenRule({ field: 'userId', values: ['u-7'] }, 'refuse', { level: 'infrastructure', id: 'i-1' }),
        deposit(),
      ),
    ).toBe('refuse');
    const inactive = givenRule({ field: 'userId', values: ['u-7'] });
    const [only] = inactive.rules.values();
    only!.rule = { ...only!.rule, active: false };
    expect(actionOf(inactive, deposit())).toBeUndefined();
  });

  it('holds when a hold rule hits and no refusal does; a flag alone only flags', () => {
    const state = givenRule({ field: 'userId', values: ['u-7'] }, 'flag');
    expect(screenRequest(deposit(), state, undefined, NOW).action).toBe('flag');
    for (const [id, rule] of givenRule({ field: 'username', values: ['ayse7'] }, 'hold').rules)
      state.rules.set(id, rule);
    expect(screenRequest(deposit(), state, undefined, NOW)).toMatchObject({ action: 'hold', hits: [{}, {}] });
  });

  it('records every hit with its rule version, refuse winning over flag', () => {
    const state = givenRule({ field: 'userId', values: ['u-7'] }, 'flag');
    for (const [id, rule] of givenRule({ field: 'username', values: ['ayse7'] }).rules) state.rules.set(id, rule);
    const screening = screenRequest(deposit(), state, undefined, NOW);
    expect(screening.action).toBe('refuse');
    expect(screening.hits.map((h) => [h.action, h.version])).toEqual([
      ['flag', 2],
      ['refuse', 2],
    ]);
  });
});

describe('screenRequest: velocity limits (this request not yet counted)', () => {
  const customer = customerKey('m-1', { userId: 'u-7', fullName: 'Ayşe Yılmaz' });

  it('deposits per hour: the limit-th is taken, the next is not; older ones do not count', () => {
    const state = givenRule({ limit: 'depositsPerHour', value: '2' });
    const tracker = new VelocityTracker();
    tracker.note(customer, 'deposit', NOW - 61 * MIN, 100n);
    tracker.note(customer, 'deposit', NOW - 30 * MIN, 100n);
    expect(actionOf(state, deposit(), tracker)).toBeUndefined();
    tracker.note(customer, 'deposit', NOW - 1 * MIN, 100n);
    expect(actionOf(state, deposit(), tracker)).toBe('refuse');
    expect(actionOf(state, withdrawal(), tracker)).toBeUndefined();
  });

  it('deposits per day and the amount per day', () => {
    const tracker = new VelocityTracker();
    tracker.note(customer, 'deposit', NOW - 20 * 60 * MIN, 50_000n);
    expect(actionOf(givenRule({ limit: 'depositsPerDay', value: '1' }), deposit(), tracker)).toBe('refuse');
    // 500.00 TRY earlier today + this 100.00: exactly at a 600.00 limit is taken, past it is not.
    expect(actionOf(givenRule({ limit: 'depositAmountPerDay', value: '60000' }), deposit(), tracker)).toBeUndefined();
    expect(actionOf(givenRule({ limit: 'depositAmountPerDay', value: '59999' }), deposit(), tracker)).toBe('refuse');
  });

  it('the first deposit cap applies only to a customer with no deposit before', () => {
    const state = givenRule({ limit: 'firstDeposit', value: '5000' });
    expect(actionOf(state, deposit())).toBe('refuse');
    expect(actionOf(state, deposit({ amountKurus: 5_000n }))).toBeUndefined();
    const tracker = new VelocityTracker();
    tracker.markDeposited(customer);
    expect(actionOf(state, deposit(), tracker)).toBeUndefined();
  });

  it('withdrawals per day, and a withdrawal within N minutes of a deposit', () => {
    const tracker = new VelocityTracker();
    tracker.note(customer, 'withdrawal', NOW - 60 * MIN, 100n);
    expect(actionOf(givenRule({ limit: 'withdrawalsPerDay', value: '1' }), withdrawal(), tracker)).toBe('refuse');
    expect(actionOf(givenRule({ limit: 'withdrawalsPerDay', value: '2' }), withdrawal(), tracker)).toBeUndefined();
    tracker.note(customer, 'deposit', NOW - 10 * MIN, 100n);
    expect(actionOf(givenRule({ limit: 'withdrawalAfterDeposit', value: '15' }), withdrawal(), tracker)).toBe('refuse');
    expect(
      actionOf(givenRule({ limit: 'withdrawalAfterDeposit', value: '10' }), withdrawal(), tracker),
    ).toBeUndefined();
  });

  it('counts a customer by user id, else by the normalised name, per merchant', () => {
    expect(customerKey('m-1', { fullName: 'IŞIK  Öz' })).toBe(customerKey('m-1', { fullName: 'ışık öz' }));
    expect(customerKey('m-1', { fullName: 'A', userId: '9' })).not.toBe(
      customerKey('m-2', { fullName: 'A', userId: '9' }),
    );
  });
});
