import { STREAMS, domainEvent } from '@transfergate/contracts';
import { decideDeleteMerchant } from './delete-merchant.decide.js';
import { accepted, merchantRecord, refusalOf } from './testing/given-when-then.js';
import { merchant } from './testing/records.js';

describe('decideDeleteMerchant', () => {
  it('deletes softly: the whole record, deactivated and marked deleted', () => {
    expect(accepted(decideDeleteMerchant({ merchantId: 'm-1' }, merchant({}, 2)))).toEqual({
      writes: [
        {
          streamId: STREAMS.merchant('m-1'),
          expectedVersion: 2,
          events: [domainEvent('MerchantDeleted', { ...merchantRecord(), active: false, deleted: true })],
        },
      ],
      result: { id: 'm-1', changed: true },
    });
  });

  it('deleting again changes nothing; an unknown merchant is not found', () => {
    expect(accepted(decideDeleteMerchant({ merchantId: 'm-1' }, merchant({}, 2, true)))).toEqual({
      writes: [],
      result: { id: 'm-1', changed: false },
    });
    expect(refusalOf(decideDeleteMerchant({ merchantId: 'm-1' }, undefined)).errorCode).toBe('not_found');
  });
});
