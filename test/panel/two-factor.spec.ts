import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { generate } from 'otplib';
import { ConfigureOperatorCommand } from '@transfergate/contracts';
import { panelSettingsFrom } from '@transfergate/panel-api';
import { issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';
import { Authenticator } from '../support/totp-authenticator.js';
import { panelClient } from './panel-client.js';

const PASSWORD = 'Initial-pass-1';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A 6-digit code that is not the given one. */
const wrong = (code: string) => String((Number(code) + 500_001) % 1_000_000).padStart(6, '0');

describe('operator two-factor authentication over HTTP (PostgreSQL)', () => {
  const secretKey = randomBytes(32);
  const jwtKey = panelSettingsFrom(secretKey, {
    testAuthEnabled: false,
    paymentPageUrl: '',
    rateLimitPerMinute: 0,
  }).jwtKey;
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  /** State carried through the lifecycle of `tfa-main`. */
  let mainApp: Authenticator;
  let mainId: string;
  /** A session of `tfa-main` opened through the second factor. */
  let mainBearer: string;

  beforeAll(async () => {
    app = await startTestApp('postgres', { secretKey });
    await app.provision(issueBootstrap()); // admin / S3cure-pass!
    for (const username of ['tfa-main', 'tfa-lock', 'tfa-fresh']) {
      await app.commands.execute(
        new ConfigureOperatorCommand(
          { username, password: PASSWORD, role: 'operator', active: true },
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

  /** setup/init + confirm for an operator, then the read models; returns its authenticator. */
  async function enable(username: string, password: string): Promise<Authenticator> {
    const init = await client.post('/api/auth/2fa/setup/init', { username, password });
    expect(init.status).toBe(201);
    const authenticator = Authenticator.of(init.body.otpauthUrl);
    const confirm = await client.post('/api/auth/2fa/setup/confirm', {
      setupToken: init.body.setupToken,
      code: await authenticator.next(),
    });
    expect(confirm).toEqual({ status: 201, body: { success: true, twoFactorEnabled: true } });
    await app.settle();
    return authenticator;
  }

  async function challenge(username: string, password: string): Promise<string> {
    const login = await client.post('/api/auth/login', { username, password });
    expect(login.status).toBe(201);
    expect(login.body).toEqual({ twoFactorRequired: true, challengeToken: expect.any(String) });
    return login.body.challengeToken as string;
  }

  it('without 2FA, login answers tokens directly', async () => {
    const tokens = await client.login('tfa-main', PASSWORD);
    const me = await client.get('/api/auth/me', tokens.accessToken);
    expect(me).toMatchObject({ status: 200, body: { username: 'tfa-main', twoFactorEnabled: false } });
    mainId = me.body.id;
  });

  it('setup/init with a bearer answers an otpauth URL, a PNG QR code of it and a setup token', async () => {
    const tokens = await client.login('tfa-main', PASSWORD);
    const init = await client.post('/api/auth/2fa/setup/init', {}, tokens.accessToken);
    expect(init.status).toBe(201);
    expect(Object.keys(init.body).sort()).toEqual(['otpauthUrl', 'qrCodeDataUrl', 'setupToken']);
    expect(init.body.otpauthUrl).toMatch(
      /^otpauth:\/\/totp\/transfergate:tfa-main\?secret=[A-Z2-7]{32}&issuer=transfergate$/,
    );
    const prefix = 'data:image/png;base64,';
    expect(init.body.qrCodeDataUrl.startsWith(prefix)).toBe(true);
    const png = Buffer.from(init.body.qrCodeDataUrl.slice(prefix.length), 'base64');
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(png.length).toBeGreaterThan(100);
    // Nothing is stored before confirmation.
    await app.settle();
    expect((await client.get('/api/auth/me', tokens.accessToken)).body.twoFactorEnabled).toBe(false);

    mainApp = Authenticator.of(init.body.otpauthUrl);
    const rightCode = await mainApp.next();
    expect(
      await client.post('/api/auth/2fa/setup/confirm', { setupToken: init.body.setupToken, code: wrong(rightCode) }),
    ).toEqual({
      status: 401,
      body: { success: false, message: 'the two-factor code is not valid', errorCode: 'invalid_two_factor_code' },
    });
    expect(
      await client.post('/api/auth/2fa/setup/confirm', { setupToken: `${init.body.setupToken}x`, code: rightCode }),
    ).toMatchObject({ status: 401, body: { errorCode: 'invalid_token' } });
    expect(await client.post('/api/auth/2fa/setup/confirm', { code: rightCode })).toMatchObject({
      status: 400,
      body: { errorCode: 'validation_failed' },
    });
    expect(
      await client.post('/api/auth/2fa/setup/confirm', { setupToken: init.body.setupToken, code: rightCode }),
    ).toEqual({ status: 201, body: { success: true, twoFactorEnabled: true } });
    await app.settle();
    expect(await client.get('/api/auth/me', tokens.accessToken)).toMatchObject({
      status: 200,
      body: { twoFactorEnabled: true },
    });
    // Enabled: a second setup is refused, with a bearer or with the password.
    expect(await client.post('/api/auth/2fa/setup/init', {}, tokens.accessToken)).toMatchObject({
      status: 422,
      body: { errorCode: 'invalid_state_transition' },
    });
    expect(await client.post('/api/auth/2fa/setup/init', { username: 'tfa-main', password: PASSWORD })).toMatchObject({
      status: 422,
      body: { errorCode: 'invalid_state_transition' },
    });
  });

  it('login now answers a challenge and no tokens; verify exchanges it with a valid code for tokens', async () => {
    const login = await client.post('/api/auth/login', { username: 'tfa-main', password: PASSWORD });
    expect(login).toEqual({ status: 201, body: { twoFactorRequired: true, challengeToken: expect.any(String) } });
    const { challengeToken } = login.body;

    const code = await mainApp.next();
    expect(await client.post('/api/auth/2fa/verify', { challengeToken, code: wrong(code) })).toMatchObject({
      status: 401,
      body: { errorCode: 'invalid_two_factor_code' },
    });
    const verified = await client.post('/api/auth/2fa/verify', { challengeToken, code });
    expect(verified).toMatchObject({
      status: 201,
      body: { accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 },
    });
    expect(await client.get('/api/auth/me', verified.body.accessToken)).toMatchObject({
      status: 200,
      body: { id: mainId, username: 'tfa-main', twoFactorEnabled: true },
    });
    mainBearer = verified.body.accessToken;

    // The same code again, even with a fresh challenge: refused.
    const again = await challenge('tfa-main', PASSWORD);
    expect(await client.post('/api/auth/2fa/verify', { challengeToken: again, code })).toMatchObject({
      status: 401,
      body: { errorCode: 'invalid_two_factor_code' },
    });

    // The audit log has both code steps of tfa-main: two refused codes and one accepted, with the IP.
    await app.settle();
    const adminToken = (await client.login('admin', 'S3cure-pass!')).accessToken;
    const audit = await client.get(
      '/panel/audit?type=OperatorSecondFactorVerified,OperatorSecondFactorFailed',
      adminToken,
    );
    expect(audit.status).toBe(200);
    const steps = (audit.body.items as Array<{ type: string; actor: string; ip: string; after: unknown }>).filter(
      (entry) => entry.actor === mainId,
    );
    expect(steps.map((entry) => entry.type).sort()).toEqual([
      'OperatorSecondFactorFailed',
      'OperatorSecondFactorFailed',
      'OperatorSecondFactorVerified',
    ]);
    for (const entry of steps) {
      expect(entry).toMatchObject({ ip: '127.0.0.1', after: { operatorId: mainId, username: 'tfa-main' } });
    }
    expect(JSON.stringify(steps)).not.toContain(code);
  }, 120_000);

  it('a forged, expired or foreign challenge is refused with 401', async () => {
    const code = await generate({ secret: mainApp.secret });
    const sign = (key: Uint8Array, audience: string, exp: string | number) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(mainId)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(key);
    const forged = await sign(randomBytes(32), 'transfergate-2fa-challenge', '5m');
    const expired = await sign(jwtKey, 'transfergate-2fa-challenge', Math.floor(Date.now() / 1000) - 60);
    const foreign = await sign(jwtKey, 'transfergate-2fa-setup', '5m');
    for (const challengeToken of [forged, expired, foreign, 'not-a-jwt']) {
      expect(await client.post('/api/auth/2fa/verify', { challengeToken, code })).toMatchObject({
        status: 401,
        body: { errorCode: 'invalid_token' },
      });
    }
    expect(await client.post('/api/auth/2fa/verify', { challengeToken: forged })).toMatchObject({
      status: 400,
      body: { errorCode: 'validation_failed' },
    });
  });

  it('5 wrong codes lock the second factor: then even a right code gets 429', async () => {
    const authenticator = await enable('tfa-lock', PASSWORD);
    const challengeToken = await challenge('tfa-lock', PASSWORD);
    const code = await authenticator.next();
    for (let i = 0; i < 5; i++) {
      expect((await client.post('/api/auth/2fa/verify', { challengeToken, code: wrong(code) })).status).toBe(401);
    }
    expect(await client.post('/api/auth/2fa/verify', { challengeToken, code })).toMatchObject({
      status: 429,
      body: { errorCode: 'account_locked' },
    });
  }, 120_000);

  it('disable needs a bearer, the password and a valid code; then login answers tokens directly again', async () => {
    const bearer = mainBearer;
    const code = await mainApp.next();
    expect(await client.post('/api/auth/2fa/disable', { password: PASSWORD, code })).toMatchObject({
      status: 401,
      body: { errorCode: 'authentication_required' },
    });
    expect(await client.post('/api/auth/2fa/disable', { password: 'Wrong-pass-123', code }, bearer)).toMatchObject({
      status: 401,
      body: { errorCode: 'invalid_credentials' },
    });
    expect(await client.post('/api/auth/2fa/disable', { password: PASSWORD, code: wrong(code) }, bearer)).toMatchObject(
      { status: 401, body: { errorCode: 'invalid_two_factor_code' } },
    );
    expect(await client.post('/api/auth/2fa/disable', { password: PASSWORD, code }, bearer)).toEqual({
      status: 201,
      body: { success: true, twoFactorEnabled: false },
    });
    await app.settle();
    const direct = await client.login('tfa-main', PASSWORD);
    expect(await client.get('/api/auth/me', direct.accessToken)).toMatchObject({
      status: 200,
      body: { twoFactorEnabled: false },
    });
    expect(await client.post('/api/auth/2fa/disable', { password: PASSWORD, code }, bearer)).toMatchObject({
      status: 422,
      body: { errorCode: 'invalid_state_transition' },
    });
  }, 120_000);

  it('setup/init with username and password works without a bearer; bad credentials get the login 401', async () => {
    expect(await client.post('/api/auth/2fa/setup/init', {})).toMatchObject({
      status: 400,
      body: { errorCode: 'validation_failed' },
    });
    const bad = await client.post('/api/auth/2fa/setup/init', { username: 'tfa-fresh', password: 'Wrong-pass-123' });
    const unknown = await client.post('/api/auth/2fa/setup/init', { username: 'nobody-here', password: 'x' });
    expect(bad).toEqual({
      status: 401,
      body: { success: false, message: 'invalid username or password', errorCode: 'invalid_credentials' },
    });
    expect(unknown).toEqual(bad);
    expect(await client.post('/api/auth/2fa/setup/init', {}, 'x.y.z')).toMatchObject({
      status: 401,
      body: { errorCode: 'invalid_token' },
    });

    const authenticator = await enable('tfa-fresh', PASSWORD);
    // The same code in concurrent requests: exactly one opens a session.
    const challenges = await Promise.all([challenge('tfa-fresh', PASSWORD), challenge('tfa-fresh', PASSWORD)]);
    const code = await authenticator.next();
    const answers = await Promise.all(
      [...challenges, ...challenges].map((challengeToken) =>
        client.post('/api/auth/2fa/verify', { challengeToken, code }),
      ),
    );
    // The winner's own repeat is a double-click (409 already used); the other challenge's two are
    // a replayed code (401).
    expect(answers.map((a) => a.status).sort()).toEqual([201, 401, 401, 409]);
  }, 120_000);

  it('re-provisioning the bootstrap file does not turn off the 2FA of admin', async () => {
    const authenticator = await enable('admin', 'S3cure-pass!');
    await challenge('admin', 'S3cure-pass!');
    await app.provision(issueBootstrap());
    const challengeToken = await challenge('admin', 'S3cure-pass!');
    const verified = await client.post('/api/auth/2fa/verify', { challengeToken, code: await authenticator.next() });
    expect(verified.status).toBe(201);
    expect(await client.get('/api/auth/me', verified.body.accessToken)).toMatchObject({
      body: { username: 'admin', twoFactorEnabled: true },
    });
  }, 120_000);
});
