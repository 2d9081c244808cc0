import type { QueryBus } from '@nestjs/cqrs';
import { DomainError, FindProviderByApiKeyQuery, h2hHash, type ProviderCredentials } from '@transfergate/contracts';
import type { FastifyRequest } from 'fastify';
import { ProviderAuthService } from './provider-auth.service.js';

/** A request from an address, with no rate-limit budget attached (the budget has its own spec). */
const from = (ip: string) => ({ ip }) as FastifyRequest;

const PROVIDER: ProviderCredentials = {
  providerId: 'p-1',
  number: 1,
  name: 'acme-h2h',
  apiKey: 'ak_1',
  apiSecret: 'sk_1',
  apiAllowedIps: ['10.0.0.0/8'],
  active: true,
  merchantId: 'm-1',
  merchantActive: true,
  infrastructureId: 'i-1',
  apiForm: 'h2h',
  callbackDeposit: 'https://merchant.example/cb/dep',
  callbackWithdrawal: 'https://merchant.example/cb/wd',
};

/** The query bus at the service's edge: a provider directory of the given records, reads counted. */
function serviceWith(...providers: ProviderCredentials[]) {
  const asked: string[] = [];
  const queries = {
    execute: async (query: FindProviderByApiKeyQuery) => {
      asked.push(query.apiKey);
      return providers.find((p) => p.apiKey === query.apiKey) ?? null;
    },
  } as unknown as QueryBus;
  return { service: new ProviderAuthService(queries), asked };
}

const codeOf = async (run: () => unknown): Promise<string> => {
  try {
    await run();
  } catch (error) {
    return error instanceof DomainError ? error.errorCode : `not a DomainError: ${String(error)}`;
  }
  return 'no error';
};

describe('ProviderAuthService: signature forms', () => {
  const signatureOf = (secret: string) => h2hHash('ak_1', 'T-1', secret, 10_000n);
  const refusal = () => new DomainError('invalid_signature', 'hash does not match');

  it('accepts the signature made with the provider secret, in any hex case', async () => {
    const { service } = serviceWith(PROVIDER);
    const good = signatureOf('sk_1');
    await expect(service.verifySigned(from('10.0.0.1'), 'ak_1', good, signatureOf, refusal)).resolves.toBe(PROVIDER);
    await expect(
      service.verifySigned(from('10.0.0.1'), 'ak_1', good.toUpperCase(), signatureOf, refusal),
    ).resolves.toBe(PROVIDER);
  });

  it('refuses an unknown key exactly like a wrong signature, after computing one all the same', async () => {
    const { service } = serviceWith(PROVIDER);
    const secretsSigned: string[] = [];
    const counting = (secret: string) => {
      secretsSigned.push(secret);
      return signatureOf(secret);
    };
    expect(
      await codeOf(() => service.verifySigned(from('10.0.0.1'), 'ak_1', signatureOf('wrong'), counting, refusal)),
    ).toBe('invalid_signature');
    expect(
      await codeOf(() => service.verifySigned(from('10.0.0.1'), 'ak_404', signatureOf('sk_1'), counting, refusal)),
    ).toBe('invalid_signature');
    expect(secretsSigned).toHaveLength(2);
    expect(secretsSigned[1]).not.toBe('sk_1');
  });

  it('checks the signature before the key settings: a disabled provider with a wrong hash is a signature refusal', async () => {
    const { service } = serviceWith({ ...PROVIDER, active: false });
    expect(await codeOf(() => service.verifySigned(from('10.0.0.1'), 'ak_1', 'bad', signatureOf, refusal))).toBe(
      'invalid_signature',
    );
  });

  it('never looks up an empty or over-long key', async () => {
    const { service, asked } = serviceWith(PROVIDER);
    expect(await codeOf(() => service.verifySigned(from('10.0.0.1'), '', 'x', signatureOf, refusal))).toBe(
      'invalid_signature',
    );
    expect(await codeOf(() => service.byApiKey('k'.repeat(257)))).toBe('invalid_credentials');
    expect(asked).toEqual([]);
  });
});

describe('ProviderAuthService: who may call', () => {
  it('refuses in order: disabled provider, disabled merchant, IP not allowed, another API form', async () => {
    const { service } = serviceWith();
    const may = (provider: ProviderCredentials, ip = '10.1.2.3', form: ProviderCredentials['apiForm'] = 'h2h') =>
      codeOf(() => service.assertMayCall(provider, ip, form));
    expect(await may(PROVIDER)).toBe('no error');
    expect(await may({ ...PROVIDER, active: false, merchantActive: false }, '8.8.8.8', 'merchant')).toBe(
      'provider_disabled',
    );
    expect(await may({ ...PROVIDER, merchantActive: false }, '8.8.8.8', 'merchant')).toBe('merchant_disabled');
    expect(await may(PROVIDER, '8.8.8.8', 'merchant')).toBe('ip_not_allowed');
    expect(await may(PROVIDER, '10.1.2.3', 'merchant')).toBe('form_not_enabled');
  });

  it('key + secret callers: a known key, the exact secret, then the same checks but the form', async () => {
    const { service } = serviceWith(PROVIDER);
    await expect(service.authenticate({ apiKey: 'ak_1', apiSecret: 'sk_1' }, from('10.0.0.1'))).resolves.toBe(PROVIDER);
    for (const apiSecret of [undefined, '', 'sk_', 'sk_1 ', 'SK_1']) {
      expect(await codeOf(() => service.authenticate({ apiKey: 'ak_1', apiSecret }, from('10.0.0.1')))).toBe(
        'invalid_credentials',
      );
    }
    expect(await codeOf(() => service.authenticate({ apiSecret: 'sk_1' }, from('10.0.0.1')))).toBe(
      'invalid_credentials',
    );
    expect(await codeOf(() => service.authenticate({ apiKey: 'ak_1', apiSecret: 'sk_1' }, from('192.168.0.1')))).toBe(
      'ip_not_allowed',
    );
  });

  it('reads a key once while it is cached, and again after forgetAll', async () => {
    const { service, asked } = serviceWith(PROVIDER);
    await service.byApiKey('ak_1');
    await service.byApiKey('ak_1');
    expect(asked).toEqual(['ak_1']);
    service.forgetAll();
    await service.byApiKey('ak_1');
    expect(asked).toEqual(['ak_1', 'ak_1']);
  });
});
