import { STREAMS, domainEvent } from '@transfergate/contracts';
import { decideEndProviderSecretOverlap, decideRotateProviderSecret } from './rotate-provider-secret.decide.js';
import { accepted, refusalOf } from './testing/given-when-then.js';
import { givenRecord, providerRecord } from './testing/records.js';

const NOW_MS = Date.parse('2026-12-07T12:00:00.000Z');
const DAY_S = 86_400;
const rotate = (overlapSeconds: number, apiSecret = 'sk_new_secret') => ({
  providerId: 'p-1',
  apiSecret,
  overlapSeconds,
});
const sealedNew = { sealedSecret: 'sealed-2', nowMs: NOW_MS };

describe('decideRotateProviderSecret', () => {
  it('given a provider, when rotated with a 24 h overlap, then the old secret stays until then beside the new one', () => {
    const decided = accepted(decideRotateProviderSecret(rotate(DAY_S), givenRecord(providerRecord(), 4), sealedNew));
    expect(decided).toEqual({
      writes: [
        {
          streamId: STREAMS.provider('p-1'),
          expectedVersion: 4,
          events: [
            domainEvent(
              'ProviderConfigured',
              providerRecord({
                apiSecretSealed: 'sealed-2',
                previousApiSecretSealed: 'sealed-1',
                previousApiSecretUntil: '2026-12-08T12:00:00.000Z',
              }),
            ),
          ],
        },
      ],
      result: { id: 'p-1', changed: true },
    });
    expect(JSON.stringify(decided.writes)).not.toContain('sk_new_secret');
  });

  it('given a provider, when rotated with no overlap, then it is a hard cut', () => {
    const decided = accepted(decideRotateProviderSecret(rotate(0), givenRecord(providerRecord()), sealedNew));
    expect(decided.writes[0]!.events[0]!.data).toEqual(providerRecord({ apiSecretSealed: 'sealed-2' }));
  });

  it('given a rotation in its window, when rotated again, then only the secret it replaces stays (two at most)', () => {
    const inWindow = providerRecord({
      apiSecretSealed: 'sealed-2',
      previousApiSecretSealed: 'sealed-1',
      previousApiSecretUntil: '2026-12-08T00:00:00.000Z',
    });
    const decided = accepted(
      decideRotateProviderSecret(rotate(60), givenRecord(inWindow, 5), { sealedSecret: 'sealed-3', nowMs: NOW_MS }),
    );
    expect(decided.writes[0]!.events[0]!.data).toEqual(
      providerRecord({
        apiSecretSealed: 'sealed-3',
        previousApiSecretSealed: 'sealed-2',
        previousApiSecretUntil: '2026-12-07T12:01:00.000Z',
      }),
    );
    const hardCut = accepted(
      decideRotateProviderSecret(rotate(0), givenRecord(inWindow, 5), { sealedSecret: 'sealed-3', nowMs: NOW_MS }),
    );
    expect(hardCut.writes[0]!.events[0]!.data).toEqual(providerRecord({ apiSecretSealed: 'sealed-3' }));
  });

  it('refuses a short secret, an overlap out of 0..7 days, an unknown or deleted provider', () => {
    const given = givenRecord(providerRecord());
    expect(refusalOf(decideRotateProviderSecret(rotate(60, 'short'), given, sealedNew)).errorCode).toBe(
      'validation_failed',
    );
    expect(refusalOf(decideRotateProviderSecret(rotate(-1), given, sealedNew)).errorCode).toBe('validation_failed');
    expect(refusalOf(decideRotateProviderSecret(rotate(7 * DAY_S + 1), given, sealedNew)).errorCode).toBe(
      'validation_failed',
    );
    expect(refusalOf(decideRotateProviderSecret(rotate(1.5), given, sealedNew)).errorCode).toBe('validation_failed');
    expect(accepted(decideRotateProviderSecret(rotate(7 * DAY_S), given, sealedNew)).writes).toHaveLength(1);
    expect(refusalOf(decideRotateProviderSecret(rotate(60), undefined, sealedNew)).message).toBe('no provider p-1');
    expect(
      refusalOf(decideRotateProviderSecret(rotate(60), givenRecord(providerRecord(), 2, true), sealedNew)).message,
    ).toBe('provider p-1 is deleted');
  });
});

describe('decideEndProviderSecretOverlap', () => {
  const inWindow = providerRecord({
    apiSecretSealed: 'sealed-2',
    previousApiSecretSealed: 'sealed-1',
    previousApiSecretUntil: '2026-12-08T12:00:00.000Z',
  });

  it('given an open window, when ended, then the previous secret leaves the record at once', () => {
    const decided = accepted(
      decideEndProviderSecretOverlap({ providerId: 'p-1' }, givenRecord(inWindow, 7), { nowMs: NOW_MS }),
    );
    expect(decided).toEqual({
      writes: [
        {
          streamId: STREAMS.provider('p-1'),
          expectedVersion: 7,
          events: [domainEvent('ProviderConfigured', providerRecord({ apiSecretSealed: 'sealed-2' }))],
        },
      ],
      result: { id: 'p-1', changed: true },
    });
  });

  it('given no window or one that ran out, when ended, then nothing is written', () => {
    const noWindow = { writes: [], result: { id: 'p-1', changed: false } };
    expect(
      accepted(decideEndProviderSecretOverlap({ providerId: 'p-1' }, givenRecord(providerRecord()), { nowMs: NOW_MS })),
    ).toEqual(noWindow);
    const ranOut = Date.parse('2026-12-08T12:00:00.000Z');
    expect(
      accepted(decideEndProviderSecretOverlap({ providerId: 'p-1' }, givenRecord(inWindow), { nowMs: ranOut })),
    ).toEqual(noWindow);
  });

  it('refuses an unknown or deleted provider', () => {
    expect(
      refusalOf(decideEndProviderSecretOverlap({ providerId: 'p-1' }, undefined, { nowMs: NOW_MS })).errorCode,
    ).toBe('not_found');
    expect(
      refusalOf(
        decideEndProviderSecretOverlap({ providerId: 'p-1' }, givenRecord(inWindow, 2, true), { nowMs: NOW_MS }),
      ).errorCode,
    ).toBe('not_found');
  });
});
