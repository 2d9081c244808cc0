import { STREAMS, domainEvent } from '@transfergate/contracts';
import type { ProviderRecord, RecordState } from './record-state.js';
import { decideUpdateMerchantProviders } from './update-merchant-providers.decide.js';
import { accepted, refusalOf } from './testing/given-when-then.js';
import { givenRecord, merchant, providerRecord } from './testing/records.js';

const providers = (...entries: Array<[string, RecordState<ProviderRecord> | undefined]>) => new Map(entries);

describe('decideUpdateMerchantProviders', () => {
  it("moves and activates the listed providers and deactivates the merchant's others, in id order", () => {
    const decided = accepted(
      decideUpdateMerchantProviders(
        { merchantId: 'm-1', providerIds: ['p-3', 'p-1'] },
        {
          merchant: merchant(),
          providers: providers(
            ['p-3', givenRecord(providerRecord({ providerId: 'p-3', merchantId: 'm-2', active: false }), 7)],
            ['p-1', givenRecord(providerRecord(), 2)],
            ['p-2', givenRecord(providerRecord({ providerId: 'p-2' }), 4)],
          ),
        },
      ),
    );
    expect(decided).toEqual({
      writes: [
        {
          streamId: STREAMS.provider('p-2'),
          expectedVersion: 4,
          events: [domainEvent('ProviderConfigured', providerRecord({ providerId: 'p-2', active: false }))],
        },
        {
          streamId: STREAMS.provider('p-3'),
          expectedVersion: 7,
          events: [domainEvent('ProviderConfigured', providerRecord({ providerId: 'p-3', merchantId: 'm-1' }))],
        },
      ],
      result: { id: 'm-1', changed: true, changedProviders: ['p-2', 'p-3'] },
    });
  });

  it('changes nothing when the list is what the merchant has, and leaves deleted providers alone', () => {
    const decided = accepted(
      decideUpdateMerchantProviders(
        { merchantId: 'm-1', providerIds: ['p-1'] },
        {
          merchant: merchant(),
          providers: providers(
            ['p-1', givenRecord(providerRecord())],
            ['p-2', givenRecord(providerRecord({ providerId: 'p-2' }), 3, true)],
          ),
        },
      ),
    );
    expect(decided).toEqual({ writes: [], result: { id: 'm-1', changed: false, changedProviders: [] } });
  });

  it.each([
    ['an unknown merchant', undefined, providers(), 'no merchant m-1'],
    ['a deleted merchant', merchant({}, 1, true), providers(), 'merchant m-1 is deleted'],
    ['an unknown provider', merchant(), providers(['p-9', undefined]), 'no provider p-9'],
    [
      'a deleted provider listed',
      merchant(),
      providers(['p-9', givenRecord(providerRecord({ providerId: 'p-9' }), 1, true)]),
      'provider p-9 is deleted',
    ],
  ] as const)('refuses %s', (_what, given, known, message) => {
    const refusal = refusalOf(
      decideUpdateMerchantProviders({ merchantId: 'm-1', providerIds: ['p-9'] }, { merchant: given, providers: known }),
    );
    expect(refusal).toMatchObject({ errorCode: 'not_found', message });
  });
});
