import { judgeMembers, MAX_DEAD_MEMBERS_EVICTED } from './dead-member-sweep.js';

describe('judgeMembers', () => {
  const own = 'transfergate.ledger.ledger-0.server';
  const gone = 'transfergate.ledger.ledger-1.server';
  const alive = 'transfergate.ledger.ledger-2.server';
  const members = [
    { memberId: 'm-own', clientId: own },
    { memberId: 'm-gone', clientId: gone },
    { memberId: 'm-alive', clientId: alive },
  ];

  it('suspects a dead member the first time and evicts it the second', () => {
    const first = judgeMembers(members, new Set([gone]), own, new Set());
    expect(first).toEqual({ evict: [], suspects: new Set(['m-gone']) });
    const second = judgeMembers(members, new Set([gone]), own, first.suspects);
    expect(second).toEqual({ evict: ['m-gone'], suspects: new Set(['m-gone']) });
  });

  it('forgets a suspect that is alive again (a database restart ends every session for a moment)', () => {
    const first = judgeMembers(members, new Set([gone, alive]), own, new Set());
    const second = judgeMembers(members, new Set([gone]), own, first.suspects);
    expect(second.evict).toEqual(['m-gone']);
    expect(judgeMembers(members, new Set([alive]), own, second.suspects).evict).toEqual([]);
  });

  it('never evicts this replica itself, even when its own record reads dead', () => {
    const suspects = new Set(['m-own']);
    expect(judgeMembers(members, new Set([own]), own, suspects)).toEqual({ evict: [], suspects: new Set() });
  });

  it(`evicts at most ${MAX_DEAD_MEMBERS_EVICTED} members in one sweep`, () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ memberId: `m${i}`, clientId: gone }));
    const suspects = new Set(many.map((m) => m.memberId));
    expect(judgeMembers(many, new Set([gone]), own, suspects).evict).toHaveLength(MAX_DEAD_MEMBERS_EVICTED);
  });
});
