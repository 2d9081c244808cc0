import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadRuntimeConfig } from '@transfergate/all-in-one';

describe('runtime configuration', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'tg-config-'));

  it('has working defaults: port 3000, PGlite in ./data, 30 min deposit TTL', () => {
    const config = loadRuntimeConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({ port: 3000, depositTtlMs: 30 * 60_000, bodyLimitBytes: 256 * 1024 });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.secretKey).toHaveLength(32);
    // The embedded key persists: a restart can still open sealed secrets.
    const dir = dataDir();
    expect(loadRuntimeConfig({ DATA_DIR: dir }).secretKey.equals(loadRuntimeConfig({ DATA_DIR: dir }).secretKey)).toBe(
      true,
    );
  });

  it('names every bad value with what it expects', () => {
    let error: unknown;
    try {
      loadRuntimeConfig({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        DEPOSIT_TTL_MINUTES: '0',
        TRANSFERGATE_SECRET_KEY: 'short',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('PORT must be an integer 1..65535 (got "abc")');
    expect(message).toContain('DATABASE_URL must be a postgres:// or postgresql:// URL');
    expect(message).toContain('DEPOSIT_TTL_MINUTES must be an integer 1..1440');
    expect(message).toContain('TRANSFERGATE_SECRET_KEY must be 32 bytes in base64');
    expect(message).toContain('LOG_LEVEL');
  });

  it('reads CALLBACK_ALLOWED_TARGETS as a CIDR list and refuses a bad entry', () => {
    expect(loadRuntimeConfig({ DATA_DIR: dataDir() }).callbackAllowedTargets).toEqual([]);
    expect(
      loadRuntimeConfig({ DATA_DIR: dataDir(), CALLBACK_ALLOWED_TARGETS: '127.0.0.1/32, 10.0.0.0/8 ::1' })
        .callbackAllowedTargets,
    ).toEqual(['127.0.0.1/32', '10.0.0.0/8', '::1']);
    expect(() => loadRuntimeConfig({ DATA_DIR: dataDir(), CALLBACK_ALLOWED_TARGETS: '127.0.0.1/40' })).toThrow(
      /CALLBACK_ALLOWED_TARGETS: invalid callback allow-list: "127.0.0.1\/40" is not an address or CIDR range/,
    );
  });

  it('requires an explicit sealing key with a PostgreSQL server', () => {
    expect(() => loadRuntimeConfig({ DATABASE_URL: 'postgres://127.0.0.1/test' })).toThrow(
      /TRANSFERGATE_SECRET_KEY is required/,
    );
  });
});
