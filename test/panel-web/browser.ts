import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { RuntimeConfig } from '@transfergate/all-in-one';
import { startTestApp, type Engine, type TestApp } from '../support/test-app.js';
import { Authenticator } from '../support/totp-authenticator.js';

export { Authenticator };

/**
 * Browser-test helpers shared by the panel web specs: Debian's chromium through playwright-core,
 * a test app serving the built UI, a login through the UI (with a real TOTP code) and screenshots.
 */

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const PANEL_WEB_DIST = join(REPO_ROOT, 'apps/panel-web/dist');
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-artifacts/screenshots');
const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The specs need the built UI. `npm test` builds everything first; run alone, a spec builds the UI
 * here when apps/panel-web/dist is missing (a stale build is the caller's business: `npm run build`).
 */
export function ensurePanelWebBuilt(): void {
  if (existsSync(join(PANEL_WEB_DIST, 'index.html'))) return;
  execFileSync('npm', ['run', 'build', '-w', '@transfergate/panel-web'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (!existsSync(join(PANEL_WEB_DIST, 'index.html'))) throw new Error('the panel web build produced no index.html');
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A fresh browser context: UI language from `locale` ('en' or 'tr'), operator time zone Istanbul,
 * a desktop viewport for readable screenshots.
 */
export async function newPanelContext(browser: Browser, locale: 'en' | 'tr' = 'en'): Promise<BrowserContext> {
  return browser.newContext({
    locale: locale === 'tr' ? 'tr-TR' : 'en-GB',
    timezoneId: 'Europe/Istanbul',
    viewport: { width: 1440, height: 900 },
  });
}

/** A test app (real database, real HTTP) that serves the built UI under /admin/. */
export async function startPanelWebApp(engine: Engine, overrides: Partial<RuntimeConfig> = {}): Promise<TestApp> {
  ensurePanelWebBuilt();
  process.env.PANEL_WEB_DIR = PANEL_WEB_DIST;
  return startTestApp(engine, overrides);
}

/** Enrolls an operator in 2FA over the API (setup/init with username+password, then confirm). */
/**
 * Turns 2FA on over the API. Started with `bearer`, that session survives it (every other session of
 * the operator ends when 2FA turns on); started with the password, all of them end.
 */
export async function enableTwoFactorByApi(
  app: TestApp,
  username: string,
  password: string,
  bearer?: string,
): Promise<Authenticator> {
  const init = bearer
    ? await postJsonOk(`${app.baseUrl}/api/auth/2fa/setup/init`, {}, { authorization: `Bearer ${bearer}` })
    : await postJsonOk(`${app.baseUrl}/api/auth/2fa/setup/init`, { username, password });
  const authenticator = Authenticator.of(String(init.otpauthUrl));
  await postJsonOk(`${app.baseUrl}/api/auth/2fa/setup/confirm`, {
    setupToken: init.setupToken,
    code: await authenticator.next(),
  });
  await app.settle();
  return authenticator;
}

async function postJsonOk(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Logs in through the UI's form: username + password, then the TOTP step when the operator has
 * 2FA. Ends on the dashboard. The inputs are found by their ids (labels differ per language).
 */
export async function loginInBrowser(
  page: Page,
  app: TestApp,
  credentials: { username: string; password: string; authenticator?: Authenticator },
): Promise<void> {
  await page.goto(`${app.baseUrl}/admin/#/login`);
  await page.locator('#username').fill(credentials.username);
  await page.locator('#password').fill(credentials.password);
  await page.locator('button[type=submit]').click();
  if (credentials.authenticator) {
    await page.locator('#totp-code').waitFor({ state: 'visible' });
    await page.locator('#totp-code').fill(await credentials.authenticator.next());
    await page.locator('button[type=submit]').click();
  }
  await page.locator('[data-testid=dashboard]').waitFor({ state: 'visible', timeout: 15_000 });
}

/** Saves a full-page screenshot to test-artifacts/screenshots/<name>.png; returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)) throw new Error(`screenshot name must be kebab-case, got ${name}`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  // No hover state (chart tooltips, row highlights) left over from the last click.
  await page.mouse.move(1, (page.viewportSize()?.height ?? 900) - 1);
  // Finished transitions: a dialog caught mid-fade is unreadable.
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

/**
 * Visible form fields without an accessible name (no <label for>, aria-label or aria-labelledby),
 * described by their tag, type and id, for an `expect(...).toEqual([])`.
 */
export async function unlabelledInputs(page: Page): Promise<string[]> {
  const missing: string[] = [];
  // aria-hidden inputs are MUI's value carriers behind a labelled combobox, not fields.
  const fields = page.locator(
    'input:not([type=hidden]):not([aria-hidden=true]):visible, select:visible, textarea:not([aria-hidden=true]):visible',
  );
  for (const field of await fields.all()) {
    const id = await field.getAttribute('id');
    const labelled =
      (id !== null && id !== '' && (await page.locator(`label[for="${id}"]`).count()) > 0) ||
      Boolean(await field.getAttribute('aria-label')) ||
      Boolean(await field.getAttribute('aria-labelledby')) ||
      (await field.locator('xpath=ancestor::label').count()) > 0;
    if (!labelled) {
      const tag = await field.evaluate((element) => element.tagName.toLowerCase());
      missing.push(`${tag}[type=${await field.getAttribute('type')}]#${id ?? ''}`);
    }
  }
  return missing;
}
