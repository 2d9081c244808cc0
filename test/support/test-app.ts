import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createApp, parseBootstrap, type RunningApp, type RuntimeConfig } from '@transfergate/all-in-one';
import { TEST_DATABASE_URL } from './postgres.js';

export type Engine = 'pglite' | 'postgres';
export const ENGINES: Engine[] = ['pglite', 'postgres'];

/** The bootstrap file exactly as the foundation issue gives it. */
export const ISSUE_BOOTSTRAP = {
  operators: [{ username: 'admin', password: 'S3cure-pass!', role: 'admin' }],
  infrastructures: [
    {
      name: 'Acme H2H',
      slug: 'acme',
      apiForm: 'h2h',
      callbackFormat: 'h2h',
      callback_deposit: 'http://127.0.0.1:9999/cb/dep',
      callback_withdrawal: 'http://127.0.0.1:9999/cb/wd',
      webhookAllowedIps: ['127.0.0.1/32'],
    },
  ],
  merchants: [
    {
      name: 'Acme',
      minAmount: 10,
      maxAmount: 500000,
      depositCommissionPercent: 1.5,
      withdrawalCommissionPercent: 0,
      overdraftLimit: 0,
      providers: [{ name: 'acme-h2h', infrastructure: 'acme', apiKey: 'ak_test_1', apiSecret: 'sk_test_1' }],
    },
  ],
  bankAccounts: [
    {
      bank: 'Ziraat Bankası',
      iban: 'TR330006100519786457841326',
      holderName: 'Transfer Ltd',
      fast: true,
      minAmount: 1,
      maxAmount: 500000,
      dailyLimit: 5000000,
    },
  ],
};

export interface TestApp extends RunningApp {
  engine: Engine;
  baseUrl: string;
  /** Stops the app and removes its database (schema or data dir). */
  stop(): Promise<void>;
}

/**
 * A real app on a real database, listening on a free loopback port. `sharedSchema` (PostgreSQL): a
 * second process of another test app's database (its schema, left to that app to drop).
 */
export async function startTestApp(
  engine: Engine,
  overrides: Partial<RuntimeConfig> = {},
  sharedSchema?: string,
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tg-test-'));
  const schema = sharedSchema ?? `t_app_${randomBytes(5).toString('hex')}`;
  const config: RuntimeConfig = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    ...(engine === 'postgres' ? { databaseUrl: TEST_DATABASE_URL } : {}),
    depositTtlMs: 30 * 60_000,
    secretKey: randomBytes(32),
    bodyLimitBytes: 256 * 1024,
    trustProxy: [],
    shutdownTimeoutMs: 10_000,
    logLevel: 'fatal',
    paymentPageUrl: 'http://127.0.0.1:0',
    testAuthEnabled: true,
    environment: 'production',
    rateLimitPerMinute: 0,
    // Test receivers listen on loopback, which the egress policy refuses unless allow-listed.
    callbackAllowedTargets: ['127.0.0.1/32'],
    ...overrides,
  };
  const running = await createApp(config, engine === 'postgres' ? { schema } : {});
  await running.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = running.app.getHttpServer().address() as AddressInfo;
  // Payment links point at this very server unless a test chose otherwise.
  if (!overrides.paymentPageUrl) running.gatewaySettings.paymentPageUrl = `http://127.0.0.1:${port}`;
  return {
    ...running,
    engine,
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      await running.close();
      if (engine === 'postgres' && !sharedSchema) {
        const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function issueBootstrap() {
  return parseBootstrap(structuredClone(ISSUE_BOOTSTRAP), 'test');
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, body: json as Record<string, unknown> };
}
