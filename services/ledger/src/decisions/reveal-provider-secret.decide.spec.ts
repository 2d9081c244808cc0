import { STREAMS, domainEvent } from '@transfergate/contracts';
import { decideRevealProviderSecret } from './reveal-provider-secret.decide.js';
import { accepted, refusalOf } from './testing/given-when-then.js';
import { givenRecord, providerRecord } from './testing/records.js';

describe('decideRevealProviderSecret', () => {
  it('records the reveal (provider and key, never the secret) at any version', () => {
    const writes = accepted(decideRevealProviderSecret({ providerId: 'p-1' }, givenRecord(providerRecord())));
    expect(writes).toEqual([
      {
        streamId: STREAMS.providerSecretAccess('p-1'),
        expectedVersion: 'any',
        events: [domainEvent('ProviderSecretRevealed', { providerId: 'p-1', apiKey: 'key-1' })],
      },
    ]);
    expect(JSON.stringify(writes)).not.toContain('sealed-1');
  });

  it('refuses an unknown or deleted provider', () => {
    expect(refusalOf(decideRevealProviderSecret({ providerId: 'p-1' }, undefined)).message).toBe('no provider p-1');
    expect(
      refusalOf(decideRevealProviderSecret({ providerId: 'p-1' }, givenRecord(providerRecord(), 2, true))).message,
    ).toBe('provider p-1 is deleted');
  });
});
