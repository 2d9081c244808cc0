import { ConfigureMerchantCommand } from '@transfergate/contracts';
import { configIdFor } from '@transfergate/ledger';
import { verifyPassword } from '@transfergate/security';
import { BootstrapFileError, parseBootstrap } from '@transfergate/all-in-one';
import { ENGINES, ISSUE_BOOTSTRAP, issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';

describe.each(ENGINES)('bootstrap file on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('applies the issue shape, then changes nothing when applied again', async () => {
    const first = await app.provision(issueBootstrap());
    expect(first).toEqual({ changed: 5, unchanged: 0 });
    const eventsAfterFirst = (await app.db.query<{ n: string }>('select count(*)::text n from es_events')).rows[0]!.n;
    const second = await app.provision(issueBootstrap());
    expect(second).toEqual({ changed: 0, unchanged: 5 });
    expect((await app.db.query<{ n: string }>('select count(*)::text n from es_events')).rows[0]!.n).toBe(
      eventsAfterFirst,
    );

    const merchant = await app.db.query<{ record: Record<string, unknown> }>(
      'select record from rm_merchants where merchant_id = $1',
      [configIdFor.merchant('Acme')],
    );
    expect(merchant.rows[0]!.record).toMatchObject({
      minAmountKurus: '1000',
      maxAmountKurus: '50000000',
      depositCommissionBp: 150,
      overdraftLimitKurus: '0',
    });
    const provider = await app.db.query<{ record: Record<string, unknown> }>(
      'select record from rm_providers where api_key = $1',
      ['ak_test_1'],
    );
    expect(JSON.stringify(provider.rows[0]!.record)).not.toContain('sk_test_1'); // sealed at rest
    const operator = await app.db.query<{ record: { passwordHash: string } }>(
      'select record from rm_operators where username = $1',
      ['admin'],
    );
    expect(await verifyPassword('S3cure-pass!', operator.rows[0]!.record.passwordHash)).toBe(true);
    expect(operator.rows[0]!.record.passwordHash).not.toContain('S3cure-pass!');
  });

  it('a changed value appends one configuration event with the actor, and the stream is the audit trail', async () => {
    const changed = structuredClone(ISSUE_BOOTSTRAP);
    changed.merchants[0]!.maxAmount = 600000;
    expect(await app.provision(parseBootstrap(changed, 'test'))).toEqual({ changed: 1, unchanged: 4 });
    const { rows } = await app.db.query<{ data: { maxAmountKurus: string }; metadata: { source: string } }>(
      `select data, metadata from es_events where stream_id = $1 order by stream_version`,
      [`merchant-${configIdFor.merchant('Acme')}`],
    );
    expect(rows.map((r) => r.data.maxAmountKurus)).toEqual(['50000000', '60000000']);
    expect(rows[1]!.metadata.source).toBe('bootstrap');
  });

  it('an API key has one owner: a second provider with the same key is refused and the projection keeps running', async () => {
    const twice = structuredClone(ISSUE_BOOTSTRAP);
    twice.merchants[0]!.providers.push({
      name: 'acme-copy',
      infrastructure: 'acme',
      apiKey: 'ak_test_1',
      apiSecret: 'sk_other_1',
    });
    await expect(app.provision(parseBootstrap(twice, 'test'))).rejects.toMatchObject({ errorCode: 'already_exists' });
    await app.settle(); // would time out if the read model had hit its unique index
    const { rows } = await app.db.query<{ n: string }>('select count(*)::text n from rm_providers where api_key = $1', [
      'ak_test_1',
    ]);
    expect(rows[0]!.n).toBe('1');
  });

  it('refuses a bad file with every problem named, before writing anything', async () => {
    expect(() => parseBootstrap({ merchants: [{ name: 'X', minAmount: -1, maxAmount: 'lots' }] }, 'bad.json')).toThrow(
      BootstrapFileError,
    );
    try {
      parseBootstrap({ merchants: [{ name: 'X', minAmount: -1, maxAmount: 'lots' }] }, 'bad.json');
    } catch (error) {
      expect((error as Error).message).toMatch(/merchants\.0\.minAmount/);
      expect((error as Error).message).toMatch(/merchants\.0\.maxAmount/);
    }
    await expect(
      app.commands.execute(
        new ConfigureMerchantCommand(
          {
            name: 'Bad',
            active: true,
            minAmountKurus: 500n,
            maxAmountKurus: 100n,
            depositCommissionBp: 0,
            withdrawalCommissionBp: 0,
            overdraftLimitKurus: 0n,
          },
          { source: 'test' },
        ),
      ),
    ).rejects.toMatchObject({ errorCode: 'validation_failed' });
  });
});
