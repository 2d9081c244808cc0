import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/free-port.js';

/** The built `transfergate` command, as `npm start`/`npx transfergate` run it. */
const MAIN = resolve('apps/all-in-one/dist/main.js');

/** Starts `--demo` on a data directory until its banner (or exit); returns what it printed. */
async function demoStart(dataDir: string): Promise<string> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does)`);
  const port = await freePort();
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir };
  delete env.HOST;
  delete env.ADMIN_PASSWORD;
  const child = spawn(process.execPath, [MAIN, '--demo'], {
    env: { ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  let done = false;
  void exited.then(() => (done = true));
  const deadline = Date.now() + 90_000;
  while (!out.includes('Sign in as') && !done && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  child.kill('SIGTERM');
  await exited;
  return out;
}

describe('--demo keeps its secrets private', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'tg-demo-private-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates its data directory 0700', async () => {
    const dataDir = join(root, 'data');
    const out = await demoStart(dataDir);
    expect(out).toContain('Sign in as');
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'admin-password')).mode & 0o777).toBe(0o600);
  }, 120_000);

  it('does not follow a planted admin-password symlink: the target is untouched, the password shown once', async () => {
    const dataDir = join(root, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const victim = join(root, 'victim');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(dataDir, 'admin-password'));
    const out = await demoStart(dataDir);
    expect(out).toContain(`refusing to write a secret to ${join(dataDir, 'admin-password')}: it is a symbolic link`);
    expect(out).toMatch(/Sign in as {5}admin \/ \S{12,} \(generated, shown once\)\n/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(dataDir, 'admin-password')).isSymbolicLink()).toBe(true);
  }, 120_000);
});
