import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';
import { Authenticator } from '../support/totp-authenticator.js';
import { panelClient } from './panel-client.js';

const PASSWORD = 'Initial-pass-1';
const LIMIT = 5;

/**
 * The throttles under real parallel requests (PostgreSQL): an attempt is counted before its slow
 * check, so 40 parallel wrong passwords get at most LIMIT checks (each answered invalid_credentials;
 * the rest are refused unchecked with account_locked), for logins and for the current password of
 * /api/auth/password; and a 2FA challenge opens one session only, even when two verifies race with
 * two valid codes.
 */
describe('operator auth under parallel attempts (PostgreSQL)', () => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap());
    for (const username of ['racer', 'changer', 'tfa-race']) {
      await app.commands.execute(
        new ConfigureOperatorCommand(
          { username, password: PASSWORD, role: 'operator', active: true },
          { source: 'test' },
        ),
      );
    }
    client = panelClient(app);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const codes = (answers: Array<{ status: number; body: Record<string, unknown> }>) =>
    answers.map((a) => `${a.status} ${String(a.body.errorCode)}`);

  it('40 parallel wrong logins: at most 5 are checked, the rest refused unchecked; then even the right password waits', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => client.post('/api/auth/login', { username: 'racer', password: 'wrong-pass-1' })),
    );
    const checked = codes(answers).filter((c) => c === '401 invalid_credentials');
    const refused = codes(answers).filter((c) => c === '429 account_locked');
    expect(checked.length).toBeGreaterThanOrEqual(1);
    expect(checked.length).toBeLessThanOrEqual(LIMIT);
    expect(checked.length + refused.length).toBe(40);
    expect(await client.post('/api/auth/login', { username: 'racer', password: PASSWORD })).toMatchObject({
      status: 429,
      body: { errorCode: 'account_locked' },
    });
  });

  it('wrong current passwords on /api/auth/password are throttled the same way', async () => {
    const { accessToken } = await client.login('changer', PASSWORD);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        client.post(
          '/api/auth/password',
          { oldPassword: 'not-the-one-1', newPassword: 'Brand-new-pass-2' },
          accessToken,
        ),
      ),
    );
    const checked = codes(answers).filter((c) => c === '401 invalid_credentials');
    expect(checked.length).toBeGreaterThanOrEqual(1);
    expect(checked.length).toBeLessThanOrEqual(LIMIT);
    expect(codes(answers).filter((c) => c === '429 account_locked')).toHaveLength(20 - checked.length);
    const right = await client.post(
      '/api/auth/password',
      { oldPassword: PASSWORD, newPassword: 'Brand-new-pass-2' },
      accessToken,
    );
    expect(right).toMatchObject({ status: 429, body: { errorCode: 'account_locked' } });
  });

  it('a 2FA challenge opens one session: of two racing verifies one succeeds, and a newer code later is refused', async () => {
    const init = await client.post('/api/auth/2fa/setup/init', { username: 'tfa-race', password: PASSWORD });
    const authenticator = Authenticator.of(init.body.otpauthUrl);
    const confirmed = await client.post('/api/auth/2fa/setup/confirm', {
      setupToken: init.body.setupToken,
      code: await authenticator.next(),
    });
    expect(confirmed.status).toBe(201);
    await app.settle();
    const login = await client.post('/api/auth/login', { username: 'tfa-race', password: PASSWORD });
    const { challengeToken } = login.body as { challengeToken: string };
    const [first, second] = [await authenticator.next(), await authenticator.next()];
    const answers = await Promise.all([
      client.post('/api/auth/2fa/verify', { challengeToken, code: first }),
      client.post('/api/auth/2fa/verify', { challengeToken, code: second }),
    ]);
    expect(answers.filter((a) => a.status === 201 && a.body.accessToken)).toHaveLength(1);
    // The loser waited for the winner and is told the sign-in is done (409, not a counted failure).
    expect(answers.filter((a) => a.status === 409 && a.body.errorCode === 'two_factor_code_used')).toHaveLength(1);
    // Later, with a code of a newer step (which the replay protection alone would accept), the used
    // challenge stays used: no second session from one password check.
    const again = await client.post('/api/auth/2fa/verify', { challengeToken, code: await authenticator.next() });
    expect(again).toMatchObject({ status: 409, body: { errorCode: 'two_factor_code_used' } });
  });
});
