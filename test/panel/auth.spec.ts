import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';
import { panelClient } from './panel-client.js';

describe('operator auth over HTTP (PostgreSQL)', () => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap()); // admin / S3cure-pass!
    for (const username of ['locky', 'changer']) {
      await app.commands.execute(
        new ConfigureOperatorCommand(
          { username, password: 'Initial-pass-1', role: 'operator', active: true },
          { source: 'test' },
        ),
      );
    }
    await app.settle();
    client = panelClient(app);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('login answers 201 with an access token, a refresh token and its lifetime; /me names the operator', async () => {
    const tokens = await client.login('admin', 'S3cure-pass!');
    expect(tokens.expiresIn).toBe(900);
    expect(tokens.accessToken.split('.')).toHaveLength(3);
    const me = await client.get('/api/auth/me', tokens.accessToken);
    expect(me).toMatchObject({ status: 200, body: { username: 'admin', role: 'admin', twoFactorEnabled: false } });
    expect(me.body.permissions).toContain('transactions.approve');
  });

  it('a wrong password and an unknown username get the same answer', async () => {
    const wrong = await client.post('/api/auth/login', { username: 'admin', password: 'not-the-password' });
    const unknown = await client.post('/api/auth/login', { username: 'nobody-here', password: 'not-the-password' });
    expect(wrong).toEqual({
      status: 401,
      body: { success: false, message: 'invalid username or password', errorCode: 'invalid_credentials' },
    });
    expect(unknown).toEqual(wrong);
  });

  it('without a token, with a forged or expired one: 401', async () => {
    expect(await client.get('/api/auth/me')).toMatchObject({
      status: 401,
      body: { errorCode: 'authentication_required' },
    });
    expect(await client.get('/api/auth/me', 'x.y.z')).toMatchObject({
      status: 401,
      body: { errorCode: 'invalid_token' },
    });
  });

  it('refresh rotates the token; reusing an old one revokes the whole session', async () => {
    const first = await client.login('admin', 'S3cure-pass!');
    const second = await client.post('/api/auth/refresh', { refreshToken: first.refreshToken });
    expect(second.status).toBe(201);
    expect(second.body.refreshToken).not.toBe(first.refreshToken);
    const third = await client.post('/api/auth/refresh', { refreshToken: second.body.refreshToken });
    expect(third.status).toBe(201);
    // The first token again: theft detected, the session (and its newest tokens) is revoked.
    const reuse = await client.post('/api/auth/refresh', { refreshToken: first.refreshToken });
    expect(reuse).toMatchObject({ status: 401, body: { errorCode: 'refresh_token_reused' } });
    expect(await client.post('/api/auth/refresh', { refreshToken: third.body.refreshToken })).toMatchObject({
      status: 401,
    });
    expect(await client.get('/api/auth/me', third.body.accessToken)).toMatchObject({
      status: 401,
      body: { errorCode: 'invalid_token' },
    });
  });

  it('concurrent refreshes with one token: exactly one succeeds', async () => {
    const tokens = await client.login('admin', 'S3cure-pass!');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => client.post('/api/auth/refresh', { refreshToken: tokens.refreshToken })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
  });

  it('logout revokes the session: its access and refresh tokens stop working', async () => {
    const tokens = await client.login('admin', 'S3cure-pass!');
    expect((await client.post('/api/auth/logout', {}, tokens.accessToken)).status).toBe(201);
    expect(await client.get('/api/auth/me', tokens.accessToken)).toMatchObject({ status: 401 });
    expect(await client.post('/api/auth/refresh', { refreshToken: tokens.refreshToken })).toMatchObject({
      status: 401,
    });
  });

  it('repeated failures lock the account for a while (then even the right password is refused)', async () => {
    for (let i = 0; i < 5; i++)
      expect((await client.post('/api/auth/login', { username: 'locky', password: 'wrong-password' })).status).toBe(
        401,
      );
    const locked = await client.post('/api/auth/login', { username: 'locky', password: 'Initial-pass-1' });
    expect(locked).toMatchObject({ status: 429, body: { errorCode: 'account_locked' } });
    for (let i = 0; i < 5; i++)
      await client.post('/api/auth/login', { username: 'ghost-user', password: 'wrong-password' });
    expect((await client.post('/api/auth/login', { username: 'ghost-user', password: 'x' })).status).toBe(429);
  });

  it('password change checks the old password and the policy, and the new one works', async () => {
    const tokens = await client.login('changer', 'Initial-pass-1');
    expect(
      await client.post(
        '/api/auth/password',
        { oldPassword: 'wrong', newPassword: 'Another-pass-22' },
        tokens.accessToken,
      ),
    ).toMatchObject({
      status: 401,
    });
    expect(
      await client.post(
        '/api/auth/password',
        { oldPassword: 'Initial-pass-1', newPassword: 'short' },
        tokens.accessToken,
      ),
    ).toMatchObject({
      status: 400,
      body: { errorCode: 'weak_password' },
    });
    expect(
      (
        await client.post(
          '/api/auth/password',
          { oldPassword: 'Initial-pass-1', newPassword: 'Another-pass-22' },
          tokens.accessToken,
        )
      ).status,
    ).toBe(201);
    await app.settle();
    await client.login('changer', 'Another-pass-22');
    expect((await client.post('/api/auth/login', { username: 'changer', password: 'Initial-pass-1' })).status).toBe(
      401,
    );
  });
});
