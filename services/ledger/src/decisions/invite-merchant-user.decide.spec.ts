import { STREAMS, domainEvent } from '@transfergate/contracts';
import { decideInviteMerchantUser } from './invite-merchant-user.decide.js';
import { accepted, refusalOf } from './testing/given-when-then.js';
import { givenRecord, merchant, operatorRecord } from './testing/records.js';

const invite = (role = 'merchant_developer', username = 'ayse@shop') => ({
  input: { merchantId: 'm-1', username, role: role as 'merchant_developer', password: 'unused-here' },
});
const context = { operatorId: 'op-9', passwordHash: 'hash-9', passwordChars: 24 };

describe('decideInviteMerchantUser', () => {
  it('given a merchant and a free username, when invited, then a merchant user exists, scoped to that merchant', () => {
    expect(
      accepted(decideInviteMerchantUser(invite(), { merchant: merchant(), existing: undefined }, context)),
    ).toEqual({
      writes: [
        {
          streamId: STREAMS.operator('op-9'),
          expectedVersion: 'no_stream',
          events: [
            domainEvent('OperatorConfigured', {
              operatorId: 'op-9',
              username: 'ayse@shop',
              passwordHash: 'hash-9',
              role: 'merchant_developer',
              active: true,
              merchantId: 'm-1',
            }),
          ],
        },
      ],
      result: { id: 'op-9', changed: true },
    });
  });

  it('refuses a taken username (operator or merchant user): an invitation never takes an account over', () => {
    const taken = givenRecord(operatorRecord({ username: 'ayse@shop', role: 'admin' }));
    expect(
      refusalOf(decideInviteMerchantUser(invite(), { merchant: merchant(), existing: taken }, context)).errorCode,
    ).toBe('already_exists');
  });

  it('refuses an operator role, a short password, an unknown or deleted merchant', () => {
    const ok = { merchant: merchant(), existing: undefined };
    expect(refusalOf(decideInviteMerchantUser(invite('admin'), ok, context)).errorCode).toBe('validation_failed');
    expect(refusalOf(decideInviteMerchantUser(invite(), ok, { ...context, passwordChars: 9 })).errorCode).toBe(
      'validation_failed',
    );
    expect(
      refusalOf(decideInviteMerchantUser(invite(), { merchant: undefined, existing: undefined }, context)).errorCode,
    ).toBe('not_found');
    expect(
      refusalOf(decideInviteMerchantUser(invite(), { merchant: merchant({}, 2, true), existing: undefined }, context))
        .errorCode,
    ).toBe('not_found');
  });
});
