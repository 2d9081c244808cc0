import { domainEvent, STREAMS } from '@transfergate/contracts';
import { evolveWithAppended } from '../domain/transaction.js';
import { decideAssign } from './assign-transaction.decide.js';
import {
  DEPOSIT_ID,
  OPERATOR,
  WITHDRAWAL_ID,
  accepted,
  depositIn,
  givenTransaction,
  then,
  withdrawalIn,
} from './testing/given-when-then.js';

const by = { source: 'panel', operatorId: 'op-1' };
const assign = (transactionId: string) => ({ transactionId, assignee: 'op-2', actor: OPERATOR });

describe('decideAssign', () => {
  it.each(['pending', 'processing'] as const)('assigns a withdrawal in %s; it is processing after', (state) => {
    const given = givenTransaction(...withdrawalIn(state));
    const decided = decideAssign(assign(WITHDRAWAL_ID), given);
    expect(then(decided)).toEqual({
      writes: [
        {
          streamId: STREAMS.transaction(WITHDRAWAL_ID),
          expectedVersion: given.version,
          events: [domainEvent('TransactionAssigned', { transactionId: WITHDRAWAL_ID, assignee: 'op-2', by })],
        },
      ],
    });
    const after = evolveWithAppended(given, STREAMS.transaction(WITHDRAWAL_ID), accepted(decided)[0]!.events);
    expect(after.view).toMatchObject({ state: 'processing', assignee: 'op-2' });
  });

  it.each(['awaiting_payment', 'payment_reported', 'expired'] as const)(
    'assigns a deposit in %s without moving its state',
    (state) => {
      const given = givenTransaction(...depositIn(state));
      const decided = accepted(decideAssign(assign(DEPOSIT_ID), given));
      const after = evolveWithAppended(given, STREAMS.transaction(DEPOSIT_ID), decided[0]!.events);
      expect(after.view).toMatchObject({ state, assignee: 'op-2' });
    },
  );

  it.each([
    ['a deposit', depositIn('approved')],
    ['a deposit', depositIn('rejected')],
    ['a withdrawal', withdrawalIn('approved')],
    ['a withdrawal', withdrawalIn('rejected')],
  ])('refuses %s that is final', (_what, events) => {
    const given = givenTransaction(...events);
    expect(then(decideAssign(assign(given.view.transactionId), given))).toEqual({ refused: 'transaction_final' });
  });
});
