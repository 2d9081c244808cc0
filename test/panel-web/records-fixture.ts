import type { Browser, BrowserContext, Page } from 'playwright-core';
import { parseBootstrap } from '@transfergate/all-in-one';
import { CallbackReceiver } from '../callbacks/callback-fixture.js';
import { ISSUE_BOOTSTRAP, postJson, type TestApp } from '../support/test-app.js';
import { enableTwoFactorByApi, launchBrowser, loginInBrowser, newPanelContext, startPanelWebApp } from './browser.js';

/**
 * The app and browser records.spec.ts starts once and its scenarios (./records-scenarios/) share: a real
 * app on PostgreSQL whose callbacks go to a local receiver, the admin signed in with 2FA in chromium
 * (English UI) and over the API, the page errors seen along the way, and the API helpers the
 * scenarios check the screens against.
 */

export const ADMIN = { username: 'admin', password: 'S3cure-pass!' };
export const AUDITOR = { username: 'denetci', password: 'Denetim-Parola-7' };
/** Generous: the machine is shared and a page may wait for CPU. */
export const UI_TIMEOUT_MS = 30_000;
export type Row = Record<string, unknown>;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A valid Turkish IBAN (mod-97) for a 5-digit bank code and a 16-digit account. */
export function turkishIban(bankCode: string, account: string): string {
  const bban = `${bankCode}0${account}`;
  // "TR00" moved to the end, letters as numbers: T=29, R=27.
  const digits = `${bban}292700`;
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return `TR${String(98 - remainder).padStart(2, '0')}${bban}`;
}

/**
 * Every visible form control has an accessible name (a label, aria-label or aria-labelledby). The
 * check runs in the page as text: the repo's typecheck has no DOM library.
 */
export const UNLABELLED_INPUTS_JS = `[...document.querySelectorAll('main input, main textarea, [role=dialog] input')]
  .filter((el) => el.type !== 'hidden' && el.offsetParent !== null && !el.closest('[aria-hidden=true]'))
  .filter((el) => (el.labels ? el.labels.length : 0) === 0 && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
  .map((el) => el.outerHTML.slice(0, 160))`;

export async function unlabelledInputs(page: Page): Promise<string[]> {
  return (await page.evaluate(UNLABELLED_INPUTS_JS)) as string[];
}

/** Starts app and browser in the calling describe's beforeAll and stops them in its afterAll; the getter is for the tests. */
export function useRecordsWebFixture() {
  let app: TestApp;
  let receiver: CallbackReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  /** The acme provider's secret: rotated by one scenario, used by later ones. */
  const shared = { acmeSecret: 'sk_test_1' };
  const pageErrors: string[] = [];

  const api = async <T = Row>(path: string): Promise<T> => {
    await app.settle();
    const response = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  /** One record of a list route, found by a field's value. */
  const findIn = async (path: string, field: string, value: unknown): Promise<Row> => {
    // The list routes read projections: wait until they applied everything written so far.
    await app.settle();
    const found = (await api<{ items: Row[] }>(path)).items.find((item) => item[field] === value);
    if (!found) throw new Error(`${path}: no item with ${field} = ${String(value)}`);
    return found;
  };
  const apiPost = async (path: string, body: unknown) => {
    const answer = await postJson(`${app.baseUrl}${path}`, body, { authorization: `Bearer ${token}` });
    expect(answer.status).toBe(201);
    return answer.body;
  };
  const open = async (hash: string) => {
    await page.goto(`${app.baseUrl}/admin/#/${hash}`);
  };
  const testAuth = (apiKey: string, apiSecret: string) =>
    fetch(`${app.baseUrl}/test-auth`, { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });

  beforeAll(async () => {
    receiver = await new CallbackReceiver().start();
    const file = structuredClone(ISSUE_BOOTSTRAP);
    file.infrastructures[0]!.callback_deposit = `${receiver.base}/acme/deposit`;
    file.infrastructures[0]!.callback_withdrawal = `${receiver.base}/acme/withdrawal`;
    app = await startPanelWebApp('postgres');
    await app.provision(parseBootstrap(file, 'test'));
    // An API session for the checks, taken before 2FA so the authenticator's steps stay the browser's.
    const login = await postJson(`${app.baseUrl}/api/auth/login`, ADMIN);
    expect(login.status).toBe(201);
    token = String(login.body.accessToken);
    // Enabled from that session, so it survives (2FA ends every other session).
    const authenticator = await enableTwoFactorByApi(app, ADMIN.username, ADMIN.password, token);
    browser = await launchBrowser();
    context = await newPanelContext(browser, 'en');
    page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await loginInBrowser(page, app, { ...ADMIN, authenticator });
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    await receiver?.close();
  });

  return () => ({
    app,
    receiver,
    browser,
    context,
    page,
    token,
    shared,
    pageErrors,
    api,
    findIn,
    apiPost,
    open,
    testAuth,
  });
}

export type RecordsWebFixture = ReturnType<ReturnType<typeof useRecordsWebFixture>>;
