import { domainEvent } from '@transfergate/contracts';
import { decideReleaseRiskHold } from './release-risk-hold.decide.js';
import { decideReject } from './reject-transaction.decide.js';
import {
  DEPOSIT_ID,
  givenTransaction,
  then,
  withdrawalRequested,
  depositRequested,
} from './testing/given-when-then.js';

const actor = { source: 'panel', operatorId: 'op-1' };
const hit = (transactionId: string, kind: 'deposit' | 'withdrawal', action: 'hold' | 'flag') =>
  domainEvent('RiskRuleHit', {
    transactionId,
    merchantId: 'm-1',
    externalId: 'ext-1',
    kind,
    action,
    hits: [{ ruleId: 'rule-1', version: 3, action }],
  });

describe('decideReleaseRiskHold', () => {
  it('a held deposit is released back to awaiting its payment', () => {
    const held = givenTransaction(depositRequested(), hit(DEPOSIT_ID, 'deposit', 'hold'));
    expect(held.view.state).toBe('held');
    expect(then(decideReleaseRiskHold({ transactionId: DEPOSIT_ID, actor }, held))).toEqual({
      writes: [
        {
          streamId: `txn-${DEPOSIT_ID}`,
          expectedVersion: 2,
          events: [domainEvent('RiskHoldReleased', { transactionId: DEPOSIT_ID, by: actor })],
        },
      ],
    });
  });

  it('a flagged transaction is not held, and cannot be released', () => {
    const flagged = givenTransaction(depositRequested(), hit(DEPOSIT_ID, 'deposit', 'flag'));
    expect(flagged.view.state).toBe('awaiting_payment');
    expect(then(decideReleaseRiskHold({ transactionId: DEPOSIT_ID, actor }, flagged))).toEqual({
      refused: 'invalid_state_transition',
    });
  });

  it('a held withdrawal may be rejected (its reservation voided) or released to pending', () => {
    const requested = withdrawalRequested();
    const id = (requested.data as { transactionId: string }).transactionId;
    const held = givenTransaction(requested, hit(id, 'withdrawal', 'hold'));
    expect(held.view.state).toBe('held');
    const rejected = then(decideReject({ transactionId: id, reason: 'mule', actor }, held));
    expect(rejected).toMatchObject({
      writes: [
        { events: [{ type: 'TransactionRejected', data: { fromState: 'held' } }] },
        { events: [{ type: 'ReservationVoided' }] },
      ],
    });
    const released = givenTransaction(
      requested,
      hit(id, 'withdrawal', 'hold'),
      domainEvent('RiskHoldReleased', { transactionId: id, by: actor }),
    );
    expect(released.view.state).toBe('pending');
  });
});
