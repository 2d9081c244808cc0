import { STREAMS, domainEvent } from '@transfergate/contracts';
import { decideSetMerchantActive } from './set-merchant-active.decide.js';
import { accepted, merchantRecord, refusalOf } from './testing/given-when-then.js';
import { merchant } from './testing/records.js';

const set = (active: boolean | undefined, restore = false) => ({ merchantId: 'm-1', active, restore });

describe('decideSetMerchantActive', () => {
  it('turns an active merchant off at the version read', () => {
    expect(accepted(decideSetMerchantActive(set(false), merchant({}, 3)))).toEqual({
      writes: [
        {
          streamId: STREAMS.merchant('m-1'),
          expectedVersion: 3,
          events: [domainEvent('MerchantConfigured', merchantRecord({ active: false }))],
        },
      ],
      result: { id: 'm-1', changed: true, active: false },
    });
  });

  it('toggles when no flag is given', () => {
    expect(accepted(decideSetMerchantActive(set(undefined), merchant({ active: false }))).result).toEqual({
      id: 'm-1',
      changed: true,
      active: true,
    });
  });

  it('changes nothing when the flag is already so', () => {
    expect(accepted(decideSetMerchantActive(set(true), merchant()))).toEqual({
      writes: [],
      result: { id: 'm-1', changed: false, active: true },
    });
  });

  it('refuses a deleted merchant unless restoring, and restores it even with the same flag', () => {
    const deleted = merchant({ active: false }, 4, true);
    expect(refusalOf(decideSetMerchantActive(set(true), deleted)).message).toBe('merchant m-1 is deleted');
    const restored = accepted(decideSetMerchantActive(set(false, true), deleted));
    expect(restored.writes[0]!.events).toEqual([domainEvent('MerchantConfigured', merchantRecord({ active: false }))]);
    expect(restored.result.changed).toBe(true);
  });

  it('refuses an unknown merchant', () => {
    expect(refusalOf(decideSetMerchantActive(set(true), undefined)).errorCode).toBe('not_found');
  });
});
