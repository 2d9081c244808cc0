import type { QueryBus } from '@nestjs/cqrs';
import type { ProviderCredentials } from '@transfergate/contracts';
import { ProviderAuthService } from '../../services/gateway-api/src/auth/provider-auth.service.js';

const record = (apiSecret: string): ProviderCredentials => ({
  providerId: 'p1',
  number: 1,
  name: 'p',
  apiKey: 'ak_1',
  apiSecret,
  apiAllowedIps: [],
  active: true,
  merchantId: 'm1',
  merchantActive: true,
  infrastructureId: 'i1',
  apiForm: 'merchant',
  callbackDeposit: 'http://127.0.0.1:9/d',
  callbackWithdrawal: 'http://127.0.0.1:9/w',
});

/** The gateway's provider cache (unit: the query bus is the collaborator, answering what the read model holds). */
describe('ProviderAuthService cache', () => {
  it('keeps a record between requests and reads again after forgetAll', async () => {
    let stored = record('sk_old');
    let reads = 0;
    const queries = { execute: async () => (reads++, stored) } as unknown as QueryBus;
    const auth = new ProviderAuthService(queries);
    expect((await auth.byApiKey('ak_1')).apiSecret).toBe('sk_old');
    expect((await auth.byApiKey('ak_1')).apiSecret).toBe('sk_old');
    expect(reads).toBe(1);
    stored = record('sk_new');
    auth.forgetAll();
    expect((await auth.byApiKey('ak_1')).apiSecret).toBe('sk_new');
    expect(reads).toBe(2);
  });

  it('does not cache a read that was in flight when the records changed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let stored = record('sk_old');
    const queries = {
      execute: async () => {
        const seen = stored; // read before the change commits...
        await gate; // ...answered after it was announced
        return seen;
      },
    } as unknown as QueryBus;
    const auth = new ProviderAuthService(queries);
    const inFlight = auth.byApiKey('ak_1');
    stored = record('sk_new');
    auth.forgetAll();
    release();
    expect((await inFlight).apiSecret).toBe('sk_old'); // that request overlapped the change
    expect((await auth.byApiKey('ak_1')).apiSecret).toBe('sk_new'); // the next one does not see it
  });

  /** Date.now() moved by `ms` for the duration of `work`. */
  async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
    const realNow = Date.now;
    const at = realNow() + ms;
    Date.now = () => at;
    try {
      return await work();
    } finally {
      Date.now = realNow;
    }
  }

  it('concurrent requests for a key not cached share one read', async () => {
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const queries = { execute: async () => (reads++, await gate, record('sk_1')) } as unknown as QueryBus;
    const auth = new ProviderAuthService(queries);
    const answers = Array.from({ length: 32 }, () => auth.byApiKey('ak_1'));
    release();
    for (const answer of await Promise.all(answers)) expect(answer.apiSecret).toBe('sk_1');
    expect(reads).toBe(1);
  });

  it('near its end an entry answers at once and is read again in the background; past its end it is read first', async () => {
    let stored = record('sk_old');
    let reads = 0;
    let release!: () => void;
    let gate = Promise.resolve();
    const queries = {
      execute: async () => {
        reads++;
        const seen = stored;
        await gate;
        return seen;
      },
    } as unknown as QueryBus;
    const auth = new ProviderAuthService(queries);
    await auth.byApiKey('ak_1');
    expect(reads).toBe(1);
    stored = record('sk_new');
    // 4.5 s on (TTL 5 s): the cached record answers while a read is held in flight.
    gate = new Promise<void>((resolve) => (release = resolve));
    expect((await later(4_500, () => auth.byApiKey('ak_1'))).apiSecret).toBe('sk_old');
    expect(reads).toBe(2);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await later(4_600, () => auth.byApiKey('ak_1'))).apiSecret).toBe('sk_new');
    expect(reads).toBe(2);
    // 12 s on, the refreshed entry (valid from 4.5 s) is past its end: the request waits for a read.
    stored = record('sk_newer');
    expect((await later(12_000, () => auth.byApiKey('ak_1'))).apiSecret).toBe('sk_newer');
    expect(reads).toBe(3);
  });
});
