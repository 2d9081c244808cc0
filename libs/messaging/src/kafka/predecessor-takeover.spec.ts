import { MAX_PREDECESSORS_EVICTED, predecessorsOf } from './predecessor-takeover.js';

describe('predecessorsOf', () => {
  const replica = 'transfergate.ledger.ledger-0.server';

  it("names only the members carrying this replica's client id", () => {
    const members = [
      { memberId: 'dead', clientId: replica },
      { memberId: 'other-replica', clientId: 'transfergate.ledger.ledger-1.server' },
      { memberId: 'other-service', clientId: 'transfergate.gateway-api.ledger-0.server' },
    ];
    expect(predecessorsOf(members, replica)).toEqual(['dead']);
  });

  it('names nobody in an empty group or one without this replica', () => {
    expect(predecessorsOf([], replica)).toEqual([]);
    expect(predecessorsOf([{ memberId: 'x', clientId: `${replica}.other` }], replica)).toEqual([]);
  });

  it(`evicts at most ${MAX_PREDECESSORS_EVICTED} members in one start`, () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ memberId: `m${i}`, clientId: replica }));
    expect(predecessorsOf(many, replica)).toHaveLength(MAX_PREDECESSORS_EVICTED);
  });
});
