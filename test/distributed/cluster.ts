import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from '../support/free-port.js';

/**
 * The five services as separate processes (`node services/<name>/dist/main.js`, built by `npm test`)
 * on one PostgreSQL schema and one NATS server, with a subject prefix unique to this run.
 */
export const SERVICES = ['ledger', 'gateway-api', 'panel-api', 'callback-dispatcher', 'webhook-ingest'] as const;
export type Service = (typeof SERVICES)[number];

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const OUTPUT_LIMIT_CHARS = 200_000;
const READY_TIMEOUT_MS = 90_000;
const PROVISION_COMMAND_TIMEOUT_MS = 15_000;

export function mainOf(service: Service): string {
  return resolve(`services/${service}/dist/main.js`);
}

export function assertBuilt(): void {
  for (const service of SERVICES) {
    if (!existsSync(mainOf(service)))
      throw new Error(`${mainOf(service)} is missing: run npm run build (npm test does)`);
  }
  if (!existsSync(resolve('apps/all-in-one/dist/provision-main.js'))) {
    throw new Error('apps/all-in-one/dist/provision-main.js is missing: run npm run build');
  }
}

export interface ServiceProcess {
  service: Service;
  port: number;
  /** The environment given to this process over the cluster's (a restart gives it again). */
  env: Record<string, string>;
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  url(path: string): string;
}

export class Cluster {
  readonly prefix = `t${randomBytes(5).toString('hex')}`;
  readonly secretKey = randomBytes(32).toString('base64');
  readonly processes: ServiceProcess[] = [];

  constructor(
    readonly databaseUrl: string,
    readonly schema: string,
    readonly extraEnv: Record<string, string> = {},
  ) {}

  env(port?: number): NodeJS.ProcessEnv {
    return {
      ...process.env,
      DATABASE_URL: this.databaseUrl,
      DATABASE_SCHEMA: this.schema,
      SECRET_KEY: this.secretKey,
      TRANSPORT: 'nats',
      NATS_URL,
      MESSAGING_PREFIX: this.prefix,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      // Test receivers listen on loopback, which the egress policy refuses by default.
      CALLBACK_ALLOWED_TARGETS: '127.0.0.1/32',
      ...(port ? { PORT: String(port) } : {}),
      ...this.extraEnv,
    };
  }

  /** Starts one instance (with `env` over the cluster's) and waits until its /readyz answers 200. */
  async start(service: Service, port?: number, env: Record<string, string> = {}): Promise<ServiceProcess> {
    const chosen = port ?? (await freePort());
    const child = spawn(process.execPath, [mainOf(service)], {
      env: { ...this.env(chosen), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const append = (d: Buffer) => {
      if (out.length < OUTPUT_LIMIT_CHARS) out += d.toString();
    };
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on('exit', (code, signal) => done({ code, signal })),
    );
    const proc: ServiceProcess = {
      service,
      port: chosen,
      env,
      child,
      output: () => out,
      exited,
      url: (path) => `http://127.0.0.1:${chosen}${path}`,
    };
    this.processes.push(proc);
    await this.waitReady(proc);
    return proc;
  }

  async waitReady(proc: ServiceProcess): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
        throw new Error(`${proc.service} exited before it was ready:\n${proc.output()}`);
      }
      try {
        const response = await fetch(proc.url('/readyz'), { signal: AbortSignal.timeout(2_000) });
        if (response.status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(`${proc.service} not ready in ${READY_TIMEOUT_MS} ms:\n${proc.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** `npm run provision` against this cluster. */
  async provision(bootstrapPath: string, adminPassword: string): Promise<string> {
    const child = spawn(
      process.execPath,
      [resolve('apps/all-in-one/dist/provision-main.js'), '--bootstrap', bootstrapPath],
      {
        // Provisioning is set-up here, not what a test measures: it gets a wait of its own, longer than
        // the short one the services use (3 s on NATS), for the first commands a just-started cluster
        // answers on a loaded 2-core machine (one CI run: no answer to the first command within 3 s).
        env: { ...this.env(), ADMIN_PASSWORD: adminPassword, COMMAND_TIMEOUT_MS: String(PROVISION_COMMAND_TIMEOUT_MS) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    if (code !== 0) throw new Error(`provisioning exited ${code}:\n${out}`);
    return out;
  }

  async stopAll(): Promise<void> {
    const alive = this.processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
    for (const p of alive) p.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(alive.map((p) => p.exited)), new Promise((r) => (timer = setTimeout(r, 10_000)))]);
    clearTimeout(timer);
    for (const p of alive) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  }
}

export async function http(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 20_000,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = { raw: text };
  }
  return { status: response.status, body: json as Record<string, unknown> };
}
