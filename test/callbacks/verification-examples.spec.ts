import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import {
  CALLBACK_VERIFICATION_LIBRARIES,
  CALLBACK_VERIFICATION_NODE,
  CALLBACK_VERIFICATION_PHP,
  CALLBACK_VERIFICATION_PYTHON,
} from '@transfergate/contracts';
import { parseBootstrap } from '@transfergate/all-in-one';
import { issueBootstrap, postJson, startTestApp, type TestApp } from '../support/test-app.js';
import { freePort } from '../support/free-port.js';
import { panelClient } from '../panel/panel-client.js';
import { CB_KEYS, CallbackReceiver, callbackBootstrapFile, h2hRequest, infraRequest } from './callback-fixture.js';

/**
 * The callback verification examples of docs/integrators.md and /docs, run as written: the Node and the
 * Python receiver get real callbacks from a real dispatcher (the Node one of two forms, MD5 and H2H,
 * each verified with its own provider's secret; the Python one the Infrastructure form), verify them
 * and answer 2xx, and refuse a forged one or one signed with another form's secret; a Standard Webhooks
 * library verifies a real callback with the secret given as the docs say (`whsec_` + base64 of the API secret).
 */
interface Example {
  child: ChildProcess;
  port: number;
  output: () => string;
  stop: () => Promise<void>;
}

/** Every form's callback path → that form's provider's API secret, as the examples take it. */
const CALLBACK_SECRETS = JSON.stringify({
  '/cb-md5/': CB_KEYS.md5.apiSecret,
  '/cb-h2h/': CB_KEYS.h2h.apiSecret,
  '/cb-infra/': CB_KEYS.infra.apiSecret,
});

async function startExample(command: string, file: string): Promise<Example> {
  const port = await freePort();
  const child = spawn(command, [file], {
    env: { PATH: process.env.PATH ?? '', CALLBACK_SECRETS, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const deadline = Date.now() + 15_000;
  // Listening once a connection is accepted (the Python example prints nothing before).
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then(
      (r) => r.status,
      () => 0,
    );
    if (up === 401) break;
    if (Date.now() > deadline) throw new Error(`${file} did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    port,
    output: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitForOutput(example: Example, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = pattern.exec(example.output());
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${what}; output:\n${example.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('callback verification examples (docs/integrators.md, /docs)', () => {
  let app: TestApp;
  let dir: string;
  let node: Example;
  let python: Example;
  let receiver: CallbackReceiver;
  let admin: string;
  let client: ReturnType<typeof panelClient>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tg-verify-'));
    writeFileSync(join(dir, 'verify-callback.mjs'), CALLBACK_VERIFICATION_NODE);
    writeFileSync(join(dir, 'verify_callback.py'), CALLBACK_VERIFICATION_PYTHON);
    node = await startExample(process.execPath, join(dir, 'verify-callback.mjs'));
    python = await startExample('python3', join(dir, 'verify_callback.py'));
    receiver = await new CallbackReceiver().start();
    // MD5 and H2H callbacks go to the Node example (one receiver, two forms, two secrets),
    // Infrastructure ones to the Python example, Merchant ones to a recorder.
    const file = callbackBootstrapFile(receiver.base);
    for (const infrastructure of file.infrastructures) {
      const base =
        infrastructure.slug === 'cb-md5' || infrastructure.slug === 'cb-h2h'
          ? `http://127.0.0.1:${node.port}`
          : infrastructure.slug === 'cb-infra'
            ? `http://127.0.0.1:${python.port}`
            : receiver.base;
      infrastructure.callback_deposit = `${base}/${infrastructure.slug}/deposit`;
      infrastructure.callback_withdrawal = `${base}/${infrastructure.slug}/withdrawal`;
    }
    app = await startTestApp('pglite', {
      callbacks: { retryScheduleMs: [0, 200, 200], requestTimeoutMs: 2_000, leaseMs: 5_000, pollIntervalMs: 50 },
    });
    await app.provision(parseBootstrap(file, 'verification'));
    await app.provision(issueBootstrap());
    client = panelClient(app);
    admin = (await client.login('admin', 'S3cure-pass!')).accessToken;
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await node?.stop();
    await python?.stop();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const creds = (key: { apiKey: string; apiSecret: string }) => ({
    'x-api-key': key.apiKey,
    'x-api-secret': key.apiSecret,
  });

  async function approveH2hDeposit(key: { apiKey: string; apiSecret: string }, externalId: string, amount: number) {
    expect((await postJson(`${app.baseUrl}/deposit/bank`, h2hRequest(key, externalId, amount))).status).toBe(201);
    const status = await postJson(`${app.baseUrl}/status/${externalId}`, {}, creds(key));
    const approved = await client.post('/panel/deposit/approve', { id: String(status.body.uuid) }, admin);
    expect(approved.status).toBe(201);
  }

  async function deliveryState(externalId: string): Promise<{ state: string; last_status_code: number | null }> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { rows } = await app.db.query<{ state: string; last_status_code: number | null }>(
        `select state, last_status_code from cb_deliveries where external_id = $1`,
        [externalId],
      );
      if (rows[0] && rows[0].state !== 'pending') return rows[0];
      if (Date.now() > deadline) throw new Error(`callback of ${externalId}: ${JSON.stringify(rows[0])}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('the Node example verifies a real MD5-format callback (headers and MD5 signature) and answers 2xx', async () => {
    const externalId = `VERIFY-MD5-${Date.now()}`;
    await approveH2hDeposit(CB_KEYS.md5, externalId, 150.5);
    const line = await waitForOutput(node, /^verified (\S+) \/cb-md5\/deposit (.+)$/m, 'verified line');
    expect(JSON.parse(line[2]!)).toMatchObject({ transactionId: externalId, amount: 150.5, status: 'confirmed' });
    expect(await deliveryState(externalId)).toEqual({ state: 'delivered', last_status_code: 200 });
  });

  it("the same Node receiver verifies a real H2H-format callback with the H2H provider's secret", async () => {
    const externalId = `VERIFY-H2H-${Date.now()}`;
    await approveH2hDeposit(CB_KEYS.h2h, externalId, 99);
    const line = await waitForOutput(node, /^verified (\S+) \/cb-h2h\/deposit (.+)$/m, 'verified H2H line');
    expect(line[2]).toContain(externalId);
    expect(await deliveryState(externalId)).toEqual({ state: 'delivered', last_status_code: 200 });
  });

  it('the Python example verifies a real Infrastructure-format callback and answers 2xx', async () => {
    const externalId = `VERIFY-INF-${Date.now()}`;
    const request = infraRequest(externalId, 120, { CustomerFullName: 'Mehmet Demir' });
    expect((await postJson(`${app.baseUrl}/deposits/deposit-request`, request)).status).toBe(200);
    const status = await postJson(`${app.baseUrl}/status/${externalId}`, {}, creds(CB_KEYS.infra));
    expect((await client.post('/panel/deposit/approve', { id: String(status.body.uuid) }, admin)).status).toBe(201);
    await waitForOutput(python, /^verified \S+ \/cb-infra\/deposit$/m, 'verified line');
    expect(await deliveryState(externalId)).toEqual({ state: 'delivered', last_status_code: 200 });
  });

  it('both examples refuse a forged or stale callback with 401', async () => {
    const body = JSON.stringify({ transactionId: 'X', amount: 1, status: 'confirmed', type: 'deposit' });
    const now = Math.floor(Date.now() / 1000);
    const headersWith = (secret: string, timestamp: number) => {
      const signer = new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`);
      const id = `msg_${timestamp}`;
      return {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signer.sign(id, new Date(timestamp * 1000), body),
      };
    };
    for (const example of [node, python]) {
      const post = (path: string, headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${example.port}${path}`, { method: 'POST', headers, body }).then((r) => r.status);
      // The control: signed with the H2H secret and sent to the H2H path, it is verified.
      expect(await post('/cb-h2h/deposit', headersWith(CB_KEYS.h2h.apiSecret, now))).toBe(200);
      expect(await post('/cb-h2h/deposit', headersWith('not-the-secret', now))).toBe(401);
      expect(await post('/cb-h2h/deposit', headersWith(CB_KEYS.h2h.apiSecret, now - 3_600))).toBe(401);
      // Another form's secret is not this form's: refused, and so is a path no secret is configured for.
      expect(await post('/cb-h2h/deposit', headersWith(CB_KEYS.infra.apiSecret, now))).toBe(401);
      expect(await post('/elsewhere', headersWith(CB_KEYS.h2h.apiSecret, now))).toBe(401);
    }
    // Correctly signed but the MD5 signature of the body is wrong: the Node example checks that too.
    const signed = headersWith(CB_KEYS.md5.apiSecret, now);
    const md5Forged = JSON.stringify({ ...JSON.parse(body), signature: '0'.repeat(32) });
    const forged = new Webhook(`whsec_${Buffer.from(CB_KEYS.md5.apiSecret, 'utf8').toString('base64')}`);
    const status = await fetch(`http://127.0.0.1:${node.port}/cb-md5/deposit`, {
      method: 'POST',
      headers: { ...signed, 'webhook-signature': forged.sign(signed['webhook-id'], new Date(now * 1000), md5Forged) },
      body: md5Forged,
    }).then((r) => r.status);
    expect(status).toBe(401);
  });

  it('a Standard Webhooks library verifies a real callback given whsec_ + base64(API secret), and not the bare secret', async () => {
    const externalId = `VERIFY-LIB-${Date.now()}`;
    const created = await postJson(
      `${app.baseUrl}/deposit`,
      { transactionId: externalId, amount: 75, username: 'lib' },
      creds(CB_KEYS.merchant),
    );
    expect(created.status).toBe(200);
    const status = await postJson(`${app.baseUrl}/status/${externalId}`, {}, creds(CB_KEYS.merchant));
    expect((await client.post('/panel/deposit/approve', { id: String(status.body.uuid) }, admin)).status).toBe(201);
    const record = await receiver.waitFor(() =>
      receiver.at('/cb-merchant/deposit').find((r) => r.body.transactionId === externalId),
    );
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(record.headers[name])]),
    );
    const apiSecret = CB_KEYS.merchant.apiSecret;
    const webhook = new Webhook('whsec_' + Buffer.from(apiSecret, 'utf8').toString('base64'));
    expect(webhook.verify(record.raw, headers)).toMatchObject({ transactionId: externalId });
    // The bare secret after whsec_ is read as base64 and gives another key: refused.
    expect(() => new Webhook(`whsec_${apiSecret}`).verify(record.raw, headers)).toThrow();
  });

  it('docs/integrators.md and /docs show the same examples', async () => {
    const integrators = readFileSync(resolve('docs/integrators.md'), 'utf8');
    const docs = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as { info: { description: string } };
    for (const snippet of [
      CALLBACK_VERIFICATION_NODE,
      CALLBACK_VERIFICATION_PYTHON,
      CALLBACK_VERIFICATION_PHP,
      CALLBACK_VERIFICATION_LIBRARIES,
    ]) {
      expect(integrators).toContain(snippet);
      expect(docs.info.description).toContain(snippet);
    }
    expect(docs.info.description).toContain("whsec_' + Buffer.from(apiSecret, 'utf8').toString('base64')");
  });
});
