import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLockedError, lockDataDir, processIdentity } from './data-dir-lock.js';

/**
 * The data-directory lock is held exactly while its holder lives: whatever a dead holder, a crash
 * or something else left in the lock file, a new process takes it over; a live holder (the same
 * pid, started at the same tick, this boot) is refused with its pid in the message.
 */
describe('data-directory lock', () => {
  let root: string;
  let dataDir: string;
  let lockPath: string;
  let bystander: ChildProcess;

  beforeAll(async () => {
    // A live process that is not a transfergate server: what a reused pid points at.
    bystander = spawn('sleep', ['60'], { stdio: 'ignore' });
    await new Promise((resolve) => bystander.once('spawn', resolve));
  });
  afterAll(() => {
    bystander.kill('SIGKILL');
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tg-lock-unit-'));
    dataDir = join(root, 'data');
    lockPath = `${dataDir}.lock`;
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const since = new Date(Date.now() - 60_000).toISOString();
  const takesOver = async (content: string) => {
    writeFileSync(lockPath, content);
    const lock = await lockDataDir(dataDir);
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
    expect(existsSync(lockPath)).toBe(false);
  };

  it("takes over a lock naming this very process's pid (pid 1 again after a container restart)", async () => {
    const { bootId } = processIdentity(process.pid);
    await takesOver(JSON.stringify({ pid: process.pid, host: hostname(), since, startTicks: 1, bootId }));
  });

  it('takes over a lock whose pid now runs an unrelated process (a reused pid)', async () => {
    const { bootId, startTicks } = processIdentity(bystander.pid!);
    expect(startTicks).toBeGreaterThan(0);
    // The dead holder started at another tick than the live process that has its pid now.
    await takesOver(
      JSON.stringify({ pid: bystander.pid, host: hostname(), since, startTicks: startTicks! - 1, bootId }),
    );
  });

  it('takes over an empty lock file and garbage (a crash between create and write)', async () => {
    await takesOver('');
    await takesOver('{"pid":');
    await takesOver('\u0000\u0000\u0000');
    await takesOver(JSON.stringify({ pid: 'one', host: 'x', since }));
    await takesOver(JSON.stringify({ pid: -5, host: 'x', since }));
  });

  it('takes over a lock from another host name or a previous boot whose holder is gone', async () => {
    const { bootId, startTicks } = processIdentity(bystander.pid!);
    // A container's host name changes with every restart; the kernel (boot id) is what decides.
    await takesOver(JSON.stringify({ pid: bystander.pid, host: 'old-container', since, startTicks: 7, bootId }));
    await takesOver(
      JSON.stringify({ pid: bystander.pid, host: 'other-host', since, startTicks, bootId: 'another-boot' }),
    );
  });

  it('refuses while the holder lives, naming its pid, also from another host name', async () => {
    const { bootId, startTicks } = processIdentity(bystander.pid!);
    for (const host of [hostname(), 'old-container']) {
      writeFileSync(lockPath, JSON.stringify({ pid: bystander.pid, host, since, startTicks, bootId }));
      const refusal = await lockDataDir(dataDir).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(DataDirLockedError);
      expect((refusal as Error).message).toContain(`is in use by process ${bystander.pid}`);
      // The live holder's lock is left alone.
      expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: bystander.pid, startTicks });
    }
  });

  it('refuses a second open in the same process and hands the lock on after release', async () => {
    const first = await lockDataDir(dataDir);
    await expect(lockDataDir(dataDir)).rejects.toThrow(`is in use by process ${process.pid}`);
    await first.release();
    const second = await lockDataDir(dataDir);
    await second.release();
  });
});
