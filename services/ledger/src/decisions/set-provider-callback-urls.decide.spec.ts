import { STREAMS, domainEvent } from '@transfergate/contracts';
import { decideSetProviderCallbackUrls } from './set-provider-callback-urls.decide.js';
import { accepted, refusalOf } from './testing/given-when-then.js';
import { givenRecord, providerRecord } from './testing/records.js';

const DEPOSIT = 'https://shop.example/callbacks/deposit';
const WITHDRAWAL = 'https://shop.example/callbacks/withdrawal';
/** The egress policy as a function: private addresses are refused. */
const policy = { refusalOf: (url: string) => (url.includes('10.0.0.') ? 'a private address' : undefined) };
const set = (callbackDeposit: string | null, callbackWithdrawal: string | null) => ({
  providerId: 'p-1',
  urls: { callbackDeposit, callbackWithdrawal },
});

describe('decideSetProviderCallbackUrls', () => {
  it("given a provider, when its merchant sets its URLs, then the record carries them (the infrastructure's no longer apply)", () => {
    expect(
      accepted(decideSetProviderCallbackUrls(set(DEPOSIT, WITHDRAWAL), givenRecord(providerRecord(), 3), policy)),
    ).toEqual({
      writes: [
        {
          streamId: STREAMS.provider('p-1'),
          expectedVersion: 3,
          events: [
            domainEvent(
              'ProviderConfigured',
              providerRecord({ callbackDeposit: DEPOSIT, callbackWithdrawal: WITHDRAWAL }),
            ),
          ],
        },
      ],
      result: { id: 'p-1', changed: true },
    });
  });

  it('null clears a URL; nothing is written when nothing changes', () => {
    const given = givenRecord(providerRecord({ callbackDeposit: DEPOSIT, callbackWithdrawal: WITHDRAWAL }));
    const cleared = accepted(decideSetProviderCallbackUrls(set(null, WITHDRAWAL), given, policy));
    expect(cleared.writes[0]!.events[0]!.data).toEqual(providerRecord({ callbackWithdrawal: WITHDRAWAL }));
    expect(accepted(decideSetProviderCallbackUrls(set(DEPOSIT, WITHDRAWAL), given, policy))).toEqual({
      writes: [],
      result: { id: 'p-1', changed: false },
    });
  });

  it('refuses a URL the egress policy refuses, and an unknown or deleted provider', () => {
    const refused = refusalOf(
      decideSetProviderCallbackUrls(set('http://10.0.0.5/cb', null), givenRecord(providerRecord()), policy),
    );
    expect(refused.errorCode).toBe('callback_url_refused');
    expect(refusalOf(decideSetProviderCallbackUrls(set(DEPOSIT, null), undefined, policy)).errorCode).toBe('not_found');
    expect(
      refusalOf(decideSetProviderCallbackUrls(set(DEPOSIT, null), givenRecord(providerRecord(), 2, true), policy))
        .errorCode,
    ).toBe('not_found');
  });
});
