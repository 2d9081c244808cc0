import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { replayInOwnProcess } from ${JSON.stringify(BUILT)};
const exitCode = await replayInOwnProcess();
if (exitCode !== undefined) process.exit(exitCode);
console.log(JSON.stringify({ execArgv: process.execArgv, args: process.argv.slice(2) }));
if (process.argv[2] === 'wait') {
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
});
