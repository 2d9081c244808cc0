import { MAX_CALLBACKS_PER_RECOVERY, STREAMS, domainEvent } from '@transfergate/contracts';
import { decideRecordCallbackRecovery } from './record-callback-recovery.decide.js';
import { accepted, refusalOf } from './testing/given-when-then.js';

const FROM = '2026-12-07T00:00:00.000Z';
const TO = '2026-12-08T00:00:00.000Z';
const recovery = (deliveryIds: string[], from = FROM, to = TO) => ({
  input: { merchantId: 'm-1', from, to, deliveryIds },
});

describe('decideRecordCallbackRecovery', () => {
  it('given failed callbacks in the range, when recovered, then one event names the range and the callbacks', () => {
    expect(accepted(decideRecordCallbackRecovery(recovery(['d-1', 'd-2'])))).toEqual([
      {
        streamId: STREAMS.callbackRecovery('m-1'),
        expectedVersion: 'any',
        events: [
          domainEvent('CallbacksRecoveryRequested', {
            merchantId: 'm-1',
            from: FROM,
            to: TO,
            deliveryIds: ['d-1', 'd-2'],
          }),
        ],
      },
    ]);
  });

  it('records nothing when nothing is to be resent', () => {
    expect(accepted(decideRecordCallbackRecovery(recovery([])))).toEqual([]);
  });

  it('refuses a reversed range and more callbacks than one recovery resends', () => {
    expect(refusalOf(decideRecordCallbackRecovery(recovery(['d-1'], TO, FROM))).errorCode).toBe('validation_failed');
    const many = Array.from({ length: MAX_CALLBACKS_PER_RECOVERY + 1 }, (_, i) => `d-${i}`);
    expect(refusalOf(decideRecordCallbackRecovery(recovery(many))).errorCode).toBe('validation_failed');
    expect(accepted(decideRecordCallbackRecovery(recovery(many.slice(1))))).toHaveLength(1);
  });
});
