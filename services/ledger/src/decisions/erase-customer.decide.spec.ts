import { domainEvent } from '@transfergate/contracts';
import { decideEraseCustomer, type EraseCustomerCommand } from './erase-customer.decide.js';
import { accepted, refusalOf } from './testing/given-when-then.js';

const command: EraseCustomerCommand = {
  erasureId: '0193a5b0-0000-7000-8000-000000000001',
  subjectIds: ['a'.repeat(32), 'b'.repeat(32)],
  reason: ' KVKK art. 7 request of 2026-12-01 ',
  requestedBy: 'op-admin-1',
  confirmedBy: 'op-admin-2',
};
const held = { liveKeys: 2, transactions: 3, statementLines: 1 };

describe('decideEraseCustomer', () => {
  it('given a customer with live keys, when a second admin confirms with a reason, then the erasure is recorded', () => {
    expect(accepted(decideEraseCustomer(command, held))).toEqual(
      domainEvent('CustomerErased', {
        erasureId: command.erasureId,
        subjectIds: command.subjectIds as string[],
        keysDestroyed: 2,
        transactions: 3,
        statementLines: 1,
        reason: 'KVKK art. 7 request of 2026-12-01',
        requestedBy: 'op-admin-1',
        confirmedBy: 'op-admin-2',
      }),
    );
  });

  it('refuses the admin who asked confirming their own request', () => {
    const refusal = refusalOf(decideEraseCustomer({ ...command, confirmedBy: 'op-admin-1' }, held));
    expect([refusal.errorCode, refusal.message]).toEqual([
      'permission_denied',
      'a second admin confirms an erasure, not the one who asked for it',
    ]);
  });

  it('refuses an erasure without a reason, or without an admin', () => {
    expect(refusalOf(decideEraseCustomer({ ...command, reason: '   ' }, held)).errorCode).toBe('validation_failed');
    expect(refusalOf(decideEraseCustomer({ ...command, reason: 'x'.repeat(501) }, held)).errorCode).toBe(
      'validation_failed',
    );
    expect(refusalOf(decideEraseCustomer({ ...command, requestedBy: '' }, held)).errorCode).toBe('validation_failed');
    expect(refusalOf(decideEraseCustomer({ ...command, subjectIds: [] }, held)).errorCode).toBe('validation_failed');
  });

  it('refuses a customer of whom nothing is held (no live key)', () => {
    expect(refusalOf(decideEraseCustomer(command, { liveKeys: 0, transactions: 0, statementLines: 0 })).errorCode).toBe(
      'not_found',
    );
  });
});
