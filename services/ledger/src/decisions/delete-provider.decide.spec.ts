import { STREAMS, domainEvent } from '@transfergate/contracts';
import { decideDeleteProvider } from './delete-provider.decide.js';
import { accepted, refusalOf } from './testing/given-when-then.js';
import { givenRecord, providerRecord } from './testing/records.js';

describe('decideDeleteProvider', () => {
  it('deletes softly, the secret still sealed in the record', () => {
    expect(accepted(decideDeleteProvider({ providerId: 'p-1' }, givenRecord(providerRecord(), 5)))).toEqual({
      writes: [
        {
          streamId: STREAMS.provider('p-1'),
          expectedVersion: 5,
          events: [domainEvent('ProviderDeleted', { ...providerRecord(), active: false, deleted: true })],
        },
      ],
      result: { id: 'p-1', changed: true },
    });
  });

  it('deleting again changes nothing; an unknown provider is not found', () => {
    expect(
      accepted(decideDeleteProvider({ providerId: 'p-1' }, givenRecord(providerRecord(), 5, true))).writes,
    ).toEqual([]);
    expect(refusalOf(decideDeleteProvider({ providerId: 'p-1' }, undefined)).errorCode).toBe('not_found');
  });
});
