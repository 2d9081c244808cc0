import { STREAMS, domainEvent, type ProviderChange } from '@transfergate/contracts';
import { changeProviderInputRefusal, decideChangeProvider } from './change-provider.decide.js';
import { accepted, refusalOf } from './testing/given-when-then.js';
import { givenRecord, merchant, providerRecord } from './testing/records.js';

const change = (c: ProviderChange) => ({ providerId: 'p-1', change: c });
const unsealed = { sealedSecret: undefined };

describe('decideChangeProvider', () => {
  it('replaces the named fields only, at the version read', () => {
    const decided = accepted(
      decideChangeProvider(
        change({ apiAllowedIps: ['10.0.0.1'], active: false }),
        { provider: givenRecord(providerRecord(), 6) },
        unsealed,
      ),
    );
    expect(decided).toEqual({
      writes: [
        {
          streamId: STREAMS.provider('p-1'),
          expectedVersion: 6,
          events: [domainEvent('ProviderConfigured', providerRecord({ apiAllowedIps: ['10.0.0.1'], active: false }))],
        },
      ],
      result: { id: 'p-1', changed: true },
    });
  });

  it('records a new secret only sealed', () => {
    const decided = accepted(
      decideChangeProvider(
        change({ apiSecret: 'a-new-secret' }),
        { provider: givenRecord(providerRecord()) },
        { sealedSecret: 'sealed-2' },
      ),
    );
    expect(JSON.stringify(decided.writes)).not.toContain('a-new-secret');
    expect(decided.writes[0]!.events[0]!.data).toMatchObject({ apiSecretSealed: 'sealed-2' });
  });

  it('given a rotation in its overlap window, when a secret is set directly, then it is a hard cut', () => {
    const inWindow = providerRecord({
      previousApiSecretSealed: 'sealed-0',
      previousApiSecretUntil: '2099-01-01T00:00:00.000Z',
    });
    const decided = accepted(
      decideChangeProvider(
        change({ apiSecret: 'a-new-secret' }),
        { provider: givenRecord(inWindow) },
        { sealedSecret: 'sealed-2' },
      ),
    );
    expect(decided.writes[0]!.events[0]!.data).toEqual(providerRecord({ apiSecretSealed: 'sealed-2' }));
    const untouched = accepted(
      decideChangeProvider(change({ active: false }), { provider: givenRecord(inWindow) }, unsealed),
    );
    expect(untouched.writes[0]!.events[0]!.data).toMatchObject({ previousApiSecretSealed: 'sealed-0' });
  });

  it('sets and clears the sandbox flag only when given', () => {
    const sandboxed = givenRecord(providerRecord({ sandbox: true }));
    expect(accepted(decideChangeProvider(change({ active: true }), { provider: sandboxed }, unsealed)).writes).toEqual(
      [],
    );
    const cleared = accepted(decideChangeProvider(change({ sandbox: false }), { provider: sandboxed }, unsealed));
    expect(cleared.writes[0]!.events[0]!.data).toEqual(providerRecord());
  });

  it('changes nothing when nothing differs, but restores a deleted provider saved again', () => {
    expect(
      accepted(decideChangeProvider(change({ active: true }), { provider: givenRecord(providerRecord()) }, unsealed)),
    ).toEqual({ writes: [], result: { id: 'p-1', changed: false } });
    const restored = accepted(
      decideChangeProvider(change({ active: true }), { provider: givenRecord(providerRecord(), 3, true) }, unsealed),
    );
    expect(restored.writes[0]!.events[0]!.type).toBe('ProviderConfigured');
  });

  it.each([
    [
      'a too short secret',
      change({ apiSecret: 'short' }),
      {},
      'validation_failed',
      'apiSecret needs at least 8 characters',
    ],
    ['an unknown merchant', change({ merchantId: 'm-9' }), { merchant: undefined }, 'not_found', 'no merchant m-9'],
    [
      'a deleted merchant',
      change({ merchantId: 'm-9' }),
      { merchant: merchant({}, 1, true) },
      'not_found',
      'merchant m-9 is deleted',
    ],
    [
      'an unknown infrastructure',
      change({ infrastructureId: 'i-9' }),
      { infrastructureExists: false },
      'not_found',
      'no infrastructure i-9',
    ],
  ] as const)('refuses %s', (_what, command, given, code, message) => {
    const refusal = refusalOf(
      decideChangeProvider(command, { provider: givenRecord(providerRecord()), ...given }, unsealed),
    );
    expect(refusal).toMatchObject({ errorCode: code, message });
  });

  it('refuses an unknown provider, and checks a secret before anything is read', () => {
    expect(refusalOf(decideChangeProvider(change({ active: true }), { provider: undefined }, unsealed)).message).toBe(
      'no provider p-1',
    );
    expect(changeProviderInputRefusal(change({ apiSecret: '1234567' }))?.errorCode).toBe('validation_failed');
    expect(changeProviderInputRefusal(change({ apiSecret: '12345678' }))).toBeUndefined();
  });
});
