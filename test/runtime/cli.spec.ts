import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/free-port.js';

/** The built `transfergate` command, as `npm start`/`npx transfergate` run it. */
const MAIN = resolve('apps/all-in-one/dist/main.js');

function transfergate(args: string[], env: Record<string, string> = {}) {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does)`);
  return spawnSync(process.execPath, [MAIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('the transfergate command line', () => {
  it('--help (and -h) exits 0 and lists the server options and the commands', () => {
    for (const flag of ['--help', '-h']) {
      const run = transfergate([flag]);
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      for (const word of ['--demo', '--bootstrap', 'statement', 'replay', '<command> --help']) {
        expect(run.stdout).toContain(word);
      }
    }
  });

  it('every command answers --help with exit 0 and its options', () => {
    const expected: Record<string, string[]> = {
      statement: ['--merchant', '--from', '--to', '--csv', '--json', '--database-url', '--schema', '--data-dir'],
      replay: [
        '--until',
        '--merchant',
        '--json',
        '--no-progress',
        '--projector',
        '--database-url',
        '--schema',
        '--data-dir',
      ],
    };
    for (const [command, options] of Object.entries(expected)) {
      for (const flag of ['--help', '-h']) {
        const run = transfergate([command, flag]);
        expect({ command, flag, status: run.status, stderr: run.stderr }).toEqual({
          command,
          flag,
          status: 0,
          stderr: '',
        });
        expect(run.stdout).toMatch(new RegExp(`^usage: transfergate ${command} `));
        for (const option of options) expect(run.stdout).toContain(option);
      }
    }
  });

  it('an unknown option is a usage error (exit 2) that prints the usage', () => {
    const run = transfergate(['--no-such-option']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Unknown option '--no-such-option'");
    expect(run.stderr).toContain('usage: transfergate');
  });

  it('replay takes --data-dir like statement: the directory given is the one read', () => {
    const empty = mkdtempSync(join(tmpdir(), 'tg-cli-'));
    try {
      // DATA_DIR points elsewhere: the option wins, and the message names the directory it read.
      const run = transfergate(['replay', '--no-progress', '--data-dir', empty], { DATA_DIR: '/nonexistent-tg' });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`no PGlite data at ${join(empty, 'pgdata')}`);
      const statement = transfergate(
        ['statement', '--merchant', 'Acme', '--from', '2025-01-01', '--to', '2025-02-01', '--data-dir', empty],
        { DATA_DIR: '/nonexistent-tg' },
      );
      expect(statement.status).toBe(2);
      expect(statement.stderr).toContain(join(empty, 'pgdata'));
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('--demo', () => {
  it('listens on 127.0.0.1 unless HOST is given, and keeps the generated admin password in a 0600 file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tg-demo-'));
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
    try {
      const deadline = Date.now() + 90_000;
      while (!out.includes('Sign in as') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(out).toContain(`transfergate listening on 127.0.0.1:${port}`);
      const file = join(dataDir, 'admin-password');
      const banner = /Sign in as {5}admin \/ (\S{12,}) \(generated, shown once\) — also in (\S+) \(mode 0600\)/.exec(
        out,
      );
      expect(banner?.[2]).toBe(file);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8').trim()).toBe(banner?.[1]);
      // The password really signs in.
      const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: banner?.[1] }),
      });
      expect(login.status).toBe(201);
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('HOST given: --demo listens where it says', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tg-demo-'));
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN, '--demo'], {
      env: {
        ...(process.env as Record<string, string>),
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '0.0.0.0',
        ADMIN_PASSWORD: 'demo-admin-password',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 90_000;
      while (!out.includes('Sign in as') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(out).toContain(`transfergate listening on 0.0.0.0:${port}`);
      // ADMIN_PASSWORD chosen: nothing generated, no password file.
      expect(existsSync(join(dataDir, 'admin-password'))).toBe(false);
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
