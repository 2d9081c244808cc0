import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';
import { Authenticator } from '../support/totp-authenticator.js';
import { panelClient } from './panel-client.js';

const PASSWORD = 'Initial-pass-1';

/**
 * Sessions end with the credentials they were opened with: a password change (other sessions), an
 * administrator's reset, turning 2FA on (other sessions) and a deactivation end them at once, for
 * access and refresh tokens alike, and a reactivation does not bring them back.
 */
describe('operator sessions and credential changes (PostgreSQL)', () => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  let admin: string;

  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap());
    for (const username of ['self-changer', 'reset-me', 'deactivate-me', 'provisioned-off', 'tfa-sessions']) {
      await app.commands.execute(
        new ConfigureOperatorCommand(
          { username, password: PASSWORD, role: 'operator', active: true },
          { source: 'test' },
        ),
      );
    }
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
  });
  afterAll(async () => {
    await app?.stop();
  });

  const me = (accessToken: string) => client.get('/api/auth/me', accessToken);
  const refresh = (refreshToken: string) => client.post('/api/auth/refresh', { refreshToken });
  const ended = { status: 401, body: { errorCode: 'invalid_token' } };

  it('a password change ends every other session at once; the changing one goes on', async () => {
    const mine = await client.login('self-changer', PASSWORD);
    const other = await client.login('self-changer', PASSWORD);
    const changed = await client.post(
      '/api/auth/password',
      { oldPassword: PASSWORD, newPassword: 'Changed-pass-22' },
      mine.accessToken,
    );
    expect(changed.status).toBe(201);
    expect(await me(other.accessToken)).toMatchObject(ended);
    expect(await refresh(other.refreshToken)).toMatchObject(ended);
    expect((await me(mine.accessToken)).status).toBe(200);
  });

  it("an administrator's password reset ends all of that operator's sessions", async () => {
    const session = await client.login('reset-me', PASSWORD);
    const reset = await client.post(
      '/panel/operators/save',
      { username: 'reset-me', password: 'Reset-by-admin-3' },
      admin,
    );
    expect(reset.status).toBeLessThan(300);
    expect(await me(session.accessToken)).toMatchObject(ended);
    expect(await refresh(session.refreshToken)).toMatchObject(ended);
  });

  it('a deactivation ends the sessions, and a reactivation does not revive them', async () => {
    const session = await client.login('deactivate-me', PASSWORD);
    expect(
      (await client.post('/panel/operators/save', { username: 'deactivate-me', active: false }, admin)).status,
    ).toBeLessThan(300);
    expect(await refresh(session.refreshToken)).toMatchObject(ended);
    expect(
      (await client.post('/panel/operators/save', { username: 'deactivate-me', active: true }, admin)).status,
    ).toBeLessThan(300);
    expect(await me(session.accessToken)).toMatchObject(ended);
    expect(await refresh(session.refreshToken)).toMatchObject({ status: 401 });
  });

  it('a deactivation outside the panel (provisioning) ends the sessions at their next use, for good', async () => {
    const first = await client.login('provisioned-off', PASSWORD);
    const second = await client.login('provisioned-off', PASSWORD);
    const configure = (active: boolean) =>
      app.commands.execute(
        new ConfigureOperatorCommand(
          { username: 'provisioned-off', password: PASSWORD, role: 'operator', active },
          { source: 'test' },
        ),
      );
    await configure(false);
    await app.settle();
    expect(await refresh(first.refreshToken)).toMatchObject(ended);
    await configure(true);
    await app.settle();
    // The first refresh after the deactivation ended both sessions: neither comes back.
    expect(await me(first.accessToken)).toMatchObject(ended);
    expect(await me(second.accessToken)).toMatchObject(ended);
    expect(await refresh(second.refreshToken)).toMatchObject(ended);
    expect((await client.login('provisioned-off', PASSWORD)).accessToken).toBeTruthy();
  });

  it('turning 2FA on ends every other session; the one that turned it on goes on', async () => {
    const mine = await client.login('tfa-sessions', PASSWORD);
    const other = await client.login('tfa-sessions', PASSWORD);
    const init = await client.post('/api/auth/2fa/setup/init', {}, mine.accessToken);
    const authenticator = Authenticator.of(init.body.otpauthUrl);
    const confirm = await client.post('/api/auth/2fa/setup/confirm', {
      setupToken: init.body.setupToken,
      code: await authenticator.next(),
    });
    expect(confirm.status).toBe(201);
    expect(await me(other.accessToken)).toMatchObject(ended);
    expect(await refresh(other.refreshToken)).toMatchObject(ended);
    expect((await me(mine.accessToken)).status).toBe(200);
  });
});
