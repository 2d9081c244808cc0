import { ConfigureOperatorCommand, ConfigureRoleCommand } from '@transfergate/contracts';
import { issueBootstrap, startTestApp, type TestApp } from '../support/test-app.js';
import { panelClient } from './panel-client.js';

/**
 * Every panel route the app registers (not a hand-kept list): refused without a token (401), and
 * refused for an operator whose role holds no permission (403) unless it is open to any operator.
 */
const OPEN_TO_ANY_OPERATOR = new Set([
  'GET /api/auth/me',
  'POST /api/auth/logout',
  'POST /api/auth/password',
  'POST /api/auth/2fa/disable',
]);

describe('panel route sweep (PostgreSQL)', () => {
  let app: TestApp;
  let client: ReturnType<typeof panelClient>;
  beforeAll(async () => {
    app = await startTestApp('postgres');
    await app.provision(issueBootstrap());
    await app.commands.execute(new ConfigureRoleCommand({ name: 'nobody', permissions: [] }, { source: 'test' }));
    await app.commands.execute(
      new ConfigureOperatorCommand(
        { username: 'powerless', password: 'Powerless-pass-1', role: 'nobody', active: true },
        { source: 'test' },
      ),
    );
    await app.settle();
    client = panelClient(app);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const panelRoutes = () =>
    app.routes
      .filter(
        (r) =>
          /^\/(api\/)?panel\//.test(r.url) ||
          (/^\/api\/auth\//.test(r.url) && OPEN_TO_ANY_OPERATOR.has(`${r.method} ${r.url}`)),
      )
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
  const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');

  it('finds the panel routes the contract lists', () => {
    const keys = new Set(panelRoutes().map((r) => `${r.method} ${r.url}`));
    for (const route of [
      'POST /panel/deposit/approve',
      'POST /panel/withdrawal/assign',
      'POST /api/panel/withdrawal/update-full',
      'GET /panel/settings/api',
      'POST /panel/settings/api',
      'POST /panel/roles/save',
      'POST /panel/dealers/update-providers',
      'POST /panel/merchants/toggle',
      'POST /panel/providers/delete',
      'POST /panel/infrastructure/save',
    ]) {
      expect(keys).toContain(route);
    }
    expect(keys.size).toBeGreaterThan(60);
  });

  it('every panel route answers 401 without a token', async () => {
    const refused: string[] = [];
    for (const route of panelRoutes()) {
      const res = await client.call(route.method, concrete(route.url), route.method === 'GET' ? undefined : {});
      if (res.status !== 401) refused.push(`${route.method} ${route.url} → ${res.status}`);
    }
    expect(refused).toEqual([]);
  });

  it('every permission-guarded route answers 403 to an operator whose role holds no permission', async () => {
    const { accessToken } = await client.login('powerless', 'Powerless-pass-1');
    const wrong: string[] = [];
    for (const route of panelRoutes()) {
      if (OPEN_TO_ANY_OPERATOR.has(`${route.method} ${route.url}`)) continue;
      const res = await client.call(
        route.method,
        concrete(route.url),
        route.method === 'GET' ? undefined : {},
        accessToken,
      );
      if (res.status !== 403 || res.body.errorCode !== 'permission_denied')
        wrong.push(`${route.method} ${route.url} → ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });
});
