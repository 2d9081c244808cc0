import { STREAMS, domainEvent } from '@transfergate/contracts';
import { decideUpdateOperator, updateOperatorInputRefusal } from './update-operator.decide.js';
import { accepted, refusalOf } from './testing/given-when-then.js';
import { givenRecord, operatorRecord } from './testing/records.js';

const update = (change: { role?: string; active?: boolean; password?: string }) => ({ operatorId: 'op-2', change });

describe('decideUpdateOperator', () => {
  it('changes the role and the password (hashed by the handler) at the version read', () => {
    const decided = accepted(
      decideUpdateOperator(update({ role: 'admin', password: 'a-long-password' }), givenRecord(operatorRecord(), 3), {
        passwordHash: 'hash-2',
      }),
    );
    expect(decided).toEqual({
      writes: [
        {
          streamId: STREAMS.operator('op-2'),
          expectedVersion: 3,
          events: [domainEvent('OperatorConfigured', operatorRecord({ role: 'admin', passwordHash: 'hash-2' }))],
        },
      ],
      result: { id: 'op-2', changed: true },
    });
  });

  it('changes nothing when nothing differs', () => {
    expect(
      accepted(
        decideUpdateOperator(update({ active: true }), givenRecord(operatorRecord()), { passwordHash: undefined }),
      ),
    ).toEqual({ writes: [], result: { id: 'op-2', changed: false } });
  });

  it('refuses an unknown operator and a password under 10 characters', () => {
    expect(
      refusalOf(decideUpdateOperator(update({ active: false }), undefined, { passwordHash: undefined })).errorCode,
    ).toBe('not_found');
    expect(updateOperatorInputRefusal(update({ password: '123456789' }))?.errorCode).toBe('validation_failed');
    expect(updateOperatorInputRefusal(update({ password: '1234567890' }))).toBeUndefined();
  });

  it('never moves an account across the line between operators and merchant users', () => {
    const merchantUser = givenRecord(operatorRecord({ role: 'merchant_viewer', merchantId: 'm-1' }));
    const change = (role: string) => ({ operatorId: 'op-2', change: { role } });
    expect(refusalOf(decideUpdateOperator(change('admin'), merchantUser, { passwordHash: undefined })).errorCode).toBe(
      'validation_failed',
    );
    expect(
      refusalOf(
        decideUpdateOperator(change('merchant_admin'), givenRecord(operatorRecord()), { passwordHash: undefined }),
      ).errorCode,
    ).toBe('validation_failed');
    const promoted = accepted(
      decideUpdateOperator(change('merchant_admin'), merchantUser, { passwordHash: undefined }),
    );
    expect(promoted.writes[0]!.events[0]!.data).toMatchObject({ role: 'merchant_admin', merchantId: 'm-1' });
  });
});
