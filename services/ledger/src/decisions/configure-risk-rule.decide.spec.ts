import { domainEvent, type DomainEvent } from '@transfergate/contracts';
import { emptyRiskRules, evolveRiskRules, type RiskRulesState } from '../domain/risk-rules.js';
import {
  decideAddBlocklistEntries,
  decideConfigureRiskRule,
  decideRemoveBlocklistEntries,
} from './configure-risk-rule.decide.js';
import { refusalOf } from './testing/given-when-then.js';

const RULE = '11111111-1111-4111-8111-111111111111';

/** given: the `risk-rules` stream holding these events. */
function givenRules(...events: DomainEvent[]): RiskRulesState {
  let state = emptyRiskRules();
  events.forEach((event, i) => (state = evolveRiskRules(state, event, i + 1)));
  return state;
}

const nameList = domainEvent('RiskRuleConfigured', {
  ruleId: RULE,
  version: 1,
  name: 'Banned names',
  scope: { level: 'global' },
  check: { kind: 'blocklist', field: 'fullName' },
  action: 'refuse',
  active: true,
});

describe('decideConfigureRiskRule', () => {
  it('creates a rule at version 1, appended at the stream version read', () => {
    const { ruleId: _id, version: _v, ...input } = nameList.data;
    const decided = decideConfigureRiskRule(input, givenRules(), RULE);
    expect(decided).toEqual({
      writes: [{ streamId: 'risk-rules', expectedVersion: 0, events: [nameList] }],
      result: { ruleId: RULE, version: 1, changed: true },
    });
  });

  it('changes a rule one version up, and appends nothing when nothing changes', () => {
    const { version: _v, ...input } = nameList.data;
    const state = givenRules(nameList);
    expect(decideConfigureRiskRule({ ...input, action: 'flag' }, state, 'unused')).toMatchObject({
      writes: [{ expectedVersion: 1, events: [{ data: { version: 2, action: 'flag' } }] }],
      result: { version: 2, changed: true },
    });
    expect(decideConfigureRiskRule(input, state, 'unused')).toEqual({
      writes: [],
      result: { ruleId: RULE, version: 1, changed: false },
    });
  });

  it('refuses an unknown rule, a non-positive limit, and a new field for a list with entries', () => {
    const { version: _v, ...input } = nameList.data;
    expect(refusalOf(decideConfigureRiskRule(input, givenRules(), 'x')).errorCode).toBe('not_found');
    const velocity = {
      ...input,
      ruleId: undefined,
      check: { kind: 'velocity' as const, limit: 'depositsPerHour' as const, value: '0' },
    };
    expect(refusalOf(decideConfigureRiskRule(velocity, givenRules(), 'x')).errorCode).toBe('validation_failed');
    // Counts the velocity memory cannot hold, and a look-back past its window, are refused too.
    const tooMany = {
      ...velocity,
      check: { kind: 'velocity' as const, limit: 'depositsPerDay' as const, value: '501' },
    };
    expect(refusalOf(decideConfigureRiskRule(tooMany, givenRules(), 'x')).message).toMatch(/at most 500/);
    const tooLong = {
      ...velocity,
      check: { kind: 'velocity' as const, limit: 'withdrawalAfterDeposit' as const, value: '1441' },
    };
    expect(refusalOf(decideConfigureRiskRule(tooLong, givenRules(), 'x')).message).toMatch(/at most 1440 minutes/);
    const listed = givenRules(
      nameList,
      domainEvent('BlocklistEntriesAdded', {
        ruleId: RULE,
        version: 2,
        entries: [{ value: 'ayse yilmaz', reason: '' }],
      }),
    );
    const refusal = refusalOf(
      decideConfigureRiskRule({ ...input, check: { kind: 'blocklist', field: 'username' } }, listed, 'x'),
    );
    expect(refusal.message).toMatch(/field cannot change/);
  });
});

describe('decideAddBlocklistEntries', () => {
  it('normalises values, one event per thousand entries, each a version of the rule', () => {
    const entries = Array.from({ length: 1_500 }, (_, i) => ({ value: `Işık Öztürk ${i}`, reason: 'chargeback' }));
    const decided = decideAddBlocklistEntries(RULE, entries, givenRules(nameList));
    if (decided instanceof Error) throw decided;
    const events = decided.writes[0]!.events;
    expect(events.map((e) => [e.type, (e.data as { version: number }).version])).toEqual([
      ['BlocklistEntriesAdded', 2],
      ['BlocklistEntriesAdded', 3],
    ]);
    expect((events[0]!.data as { entries: Array<{ value: string }> }).entries[0]!.value).toBe('isik ozturk 0');
    expect(decided.result).toEqual({ ruleId: RULE, version: 3, changed: true, added: 1_500 });
  });

  it('refuses a value that cannot be one of the field (a TCKN with a wrong checksum), naming the entry', () => {
    const tckn = givenRules(
      domainEvent('RiskRuleConfigured', { ...nameList.data, check: { kind: 'blocklist', field: 'tckn' } }),
    );
    const refusal = refusalOf(
      decideAddBlocklistEntries(
        RULE,
        [
          { value: '10000000146', reason: '' },
          { value: '10000000147', reason: '' },
        ],
        tckn,
      ),
    );
    expect(refusal.errorCode).toBe('validation_failed');
    expect(refusal.details).toEqual({ problems: ['entry 2: not a valid tckn'] });
  });

  it('refuses entries for a velocity rule', () => {
    const velocity = givenRules(
      domainEvent('RiskRuleConfigured', {
        ...nameList.data,
        check: { kind: 'velocity', limit: 'depositsPerHour', value: '3' },
      }),
    );
    expect(refusalOf(decideAddBlocklistEntries(RULE, [{ value: 'a', reason: '' }], velocity)).message).toMatch(
      /not a blocklist/,
    );
  });
});

describe('decideRemoveBlocklistEntries', () => {
  it('removes listed values (normalised) and ignores the others', () => {
    const listed = givenRules(
      nameList,
      domainEvent('BlocklistEntriesAdded', {
        ruleId: RULE,
        version: 2,
        entries: [{ value: 'ayse yilmaz', reason: '' }],
      }),
    );
    expect(decideRemoveBlocklistEntries(RULE, ['AYŞE  Yılmaz', 'someone else'], listed)).toEqual({
      writes: [
        {
          streamId: 'risk-rules',
          expectedVersion: 2,
          events: [domainEvent('BlocklistEntriesRemoved', { ruleId: RULE, version: 3, values: ['ayse yilmaz'] })],
        },
      ],
      result: { ruleId: RULE, version: 3, changed: true, removed: 1 },
    });
    expect(decideRemoveBlocklistEntries(RULE, ['nobody'], listed)).toMatchObject({
      writes: [],
      result: { removed: 0 },
    });
  });
});
