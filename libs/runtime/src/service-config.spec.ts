import { ConfigError } from './runtime-config.js';
import { engineUrlsFrom, loadServiceConfig, MAX_ENGINE_URL_LENGTH } from './service-config.js';

const BASE = {
  DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
  TRANSFERGATE_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
};

describe('engine URLs (KURRENTDB_URL, MONGODB_URL)', () => {
  it('are absent unless set, and read as given', () => {
    expect(engineUrlsFrom({})).toEqual({});
    expect(engineUrlsFrom({ KURRENTDB_URL: '', MONGODB_URL: '  ' })).toEqual({});
    expect(
      engineUrlsFrom({
        KURRENTDB_URL: 'kurrentdb://kurrentdb:2113?tls=false',
        MONGODB_URL: 'mongodb://mongodb:27017/transfergate?replicaSet=rs0',
      }),
    ).toEqual({
      kurrentdbUrl: 'kurrentdb://kurrentdb:2113?tls=false',
      mongodbUrl: 'mongodb://mongodb:27017/transfergate?replicaSet=rs0',
    });
    expect(engineUrlsFrom({ KURRENTDB_URL: 'esdb+discover://a:2113', MONGODB_URL: 'mongodb+srv://c.example' })).toEqual(
      { kurrentdbUrl: 'esdb+discover://a:2113', mongodbUrl: 'mongodb+srv://c.example' },
    );
  });

  it('a malformed one is a configuration error naming the variable, never echoing the value', () => {
    const secret = 'postgres://user:hunter2@host/db';
    let error: unknown;
    try {
      engineUrlsFrom({ KURRENTDB_URL: secret, MONGODB_URL: 'http://mongo' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'KURRENTDB_URL must be a kurrentdb:// (or esdb://) connection string',
      'MONGODB_URL must be a mongodb:// or mongodb+srv:// URL',
    ]);
    expect((error as Error).message).not.toContain('hunter2');
    expect(() => engineUrlsFrom({ MONGODB_URL: `mongodb://${'a'.repeat(MAX_ENGINE_URL_LENGTH)}` })).toThrow(
      /MONGODB_URL/,
    );
  });

  it('only the ledger reads them: the other services ignore them', () => {
    const env = { ...BASE, KURRENTDB_URL: 'kurrentdb://k:2113?tls=false', MONGODB_URL: 'mongodb://m:27017' };
    expect(loadServiceConfig(env, 'ledger').engines).toEqual({
      kurrentdbUrl: 'kurrentdb://k:2113?tls=false',
      mongodbUrl: 'mongodb://m:27017',
    });
    expect(loadServiceConfig(env, 'gateway-api').engines).toEqual({});
    expect(() => loadServiceConfig({ ...BASE, MONGODB_URL: 'nope' }, 'ledger')).toThrow(ConfigError);
  });
});
