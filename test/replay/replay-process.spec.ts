import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { hasReplayNodeOptions, REPLAY_NODE_OPTIONS } from '../../apps/all-in-one/src/cli/replay/replay-process.js';

/**
 * `transfergate replay` runs itself again with the replay's Node options (replay-process.ts). A
 * script that starts as the replay entry does, with the built module: the process that does the
 * work has the options, the exit code is the command's, and a Ctrl-C reaches the working process
 * once.
 */
const BUILT = pathToFileURL(join(process.cwd(), 'apps/all-in-one/dist/cli/replay/replay-process.js')).href;

const SCRIPT = `
import { renameSync, writeFileSync } from 'node:fs';
import { onStarterGone, replayInOwnProcess } from ${JSON.stringify(BUILT)};
const exitCode = await replayInOwnProcess();
if (exitCode !== undefined) process.exit(exitCode);
console.log(JSON.stringify({ execArgv: process.execArgv, args: process.argv.slice(2), pid: process.pid }));
if (process.argv[2] === 'orphan') {
  // Reports, through a file (its starter's stdout may be gone), that it was told to stop. Written
  // aside and renamed, so the test's poll never reads the file between its creation and its write.
  onStarterGone(() => {
    writeFileSync(process.argv[3] + '.part', 'stopped');
    renameSync(process.argv[3] + '.part', process.argv[3]);
    process.exit(4);
  });
  console.log('waiting');
  setInterval(() => undefined, 1000);
} else if (process.argv[2] === 'done') {
  // With nothing left to do, the IPC channel must not hold the process open.
  onStarterGone(() => undefined);
  setTimeout(() => undefined, 50);
} else if (process.argv[2] === 'wait') {
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts += 1;
    // Let a second one arrive if it is coming, then report how many did.
    setTimeout(() => { console.log('interrupts ' + interrupts); process.exit(3); }, 300);
  });
  console.log('waiting');
  setInterval(() => undefined, 1000);
} else {
  process.exit(Number(process.argv[3] ?? 0));
}
`;

interface Run {
  exitCode: number | null;
  lines: string[];
}

function run(args: string[], onLine?: (line: string, child: ReturnType<typeof spawn>) => void): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-replay-process-'));
  const script = join(dir, 'entry.mjs');
  writeFileSync(script, SCRIPT);
  // A process group of its own, as a shell gives a command: signals can go to the whole group.
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const lines: string[] = [];
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (pending + chunk).split('\n');
    pending = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      onLine?.(line, child);
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => {
      rmSync(dir, { recursive: true, force: true });
      resolve({ exitCode, lines });
    });
  });
}

describe('the replay runs in a process of its own with the replay Node options', () => {
  it('recognises the options given on the command line or in NODE_OPTIONS', () => {
    expect(hasReplayNodeOptions([])).toBe(false);
    expect(hasReplayNodeOptions(['--enable-source-maps'], '--max-old-space-size=512')).toBe(false);
    expect(hasReplayNodeOptions([...REPLAY_NODE_OPTIONS])).toBe(true);
    expect(hasReplayNodeOptions([], '--enable-source-maps --max-semi-space-size=32')).toBe(true);
  });

  it('does the work in a second process that has the options, with the same arguments, and exits with its code', async () => {
    const { exitCode, lines } = await run(['exit', '7']);
    expect(exitCode).toBe(7);
    const report = JSON.parse(lines[0]!) as { execArgv: string[]; args: string[] };
    expect(report.execArgv).toEqual(expect.arrayContaining([...REPLAY_NODE_OPTIONS]));
    expect(report.args).toEqual(['exit', '7']);
  }, 30_000);

  it('passes a Ctrl-C to the working process once, and its exit code back', async () => {
    const { exitCode, lines } = await run(['wait'], (line, child) => {
      // A terminal sends SIGINT to its foreground process group: every process in the command's group.
      if (line === 'waiting') process.kill(-child.pid!, 'SIGINT');
    });
    expect(lines).toContain('interrupts 1');
    expect(exitCode).toBe(3);
  }, 30_000);

  it('stops the working process when the process that started it is killed without a signal to pass on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-replay-orphan-'));
    const marker = join(dir, 'stopped');
    let workerPid: number | undefined;
    let killedAtMs = 0;
    // Not awaited first: the shared stdout closes only when the working process has exited too.
    const finished = run(['orphan', marker], (line, child) => {
      if (line.startsWith('{')) workerPid = (JSON.parse(line) as { pid: number }).pid;
      if (line === 'waiting') {
        killedAtMs = Date.now();
        child.kill('SIGKILL');
      }
    });
    try {
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && (killedAtMs === 0 || !existsSync(marker))) await sleep(20);
      expect(workerPid).toBeDefined();
      expect(existsSync(marker) && readFileSync(marker, 'utf8')).toBe('stopped');
      // Noticed at once (the channel closes with the starter), not at some poll.
      expect(statSync(marker).mtimeMs - killedAtMs).toBeLessThan(1_000);
      // Gone (an orphan is reaped by whoever adopts it, here in about a second).
      while (Date.now() < deadline && isAlive(workerPid!)) await sleep(20);
      expect(isAlive(workerPid!)).toBe(false);
    } finally {
      if (workerPid !== undefined && isAlive(workerPid)) process.kill(workerPid, 'SIGKILL');
      const { exitCode } = await finished;
      expect(exitCode).toBeNull(); // the starter died of the SIGKILL
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('lets the working process exit when its work is done (the channel does not hold it)', async () => {
    const { exitCode } = await run(['done']);
    expect(exitCode).toBe(0);
  }, 30_000);

  it('does nothing where the replay runs in the process it was started in (no IPC channel)', () => {
    // In a process of its own: jest's workers have an IPC channel to jest.
    const probe = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { onStarterGone } from ${JSON.stringify(BUILT)};
         const undo = onStarterGone(() => undefined);
         console.log(String(process.channel === undefined) + ' ' + process.listenerCount('disconnect'));
         undo();`,
      ],
      { encoding: 'utf8' },
    );
    expect(probe.stdout.trim()).toBe('true 0');
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
