import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/free-port.js';

/**
 * The README's "One example per form" blocks, run as written (only the port changed) against a real
 * `npm start -- --demo` process: the documentation cannot drift from the behaviour.
 */
const MAIN = resolve('apps/all-in-one/dist/main.js');

function readmeExamples(): string[] {
  const readme = readFileSync(resolve('README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### One example per form'), readme.indexOf('## What works today'));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe('README examples', () => {
  it('every curl example of every form works as written against npm start -- --demo', async () => {
    expect(existsSync(MAIN)).toBe(true);
    const blocks = readmeExamples();
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    const port = String(await freePort());
    const child = spawn(process.execPath, [MAIN, '--demo'], {
      env: {
        ...process.env,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'tg-readme-')),
        PORT: port,
        TEST_AUTH_ENABLED: 'true',
        LOG_LEVEL: 'warn',
        PAYMENT_PAGE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise((r) => child.on('exit', r));
    try {
      const deadline = Date.now() + 60_000;
      while (!output.includes('listening on')) {
        if (Date.now() > deadline) throw new Error(`no start:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const block of blocks) {
        const script = block.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);
        const printed = execFileSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 30_000 });
        const answers = printed.split('\n').filter((line) => line.startsWith('{'));
        const commands = (script.match(/^\s*curl /gm) ?? []).length;
        expect({ block: script.slice(0, 80), answers: answers.length }).toEqual({
          block: script.slice(0, 80),
          answers: commands,
        });
        for (const answer of answers) {
          const body = JSON.parse(answer);
          expect({ answer, ok: body.status === true || body.success === true || body.Success === true }).toEqual({
            answer,
            ok: true,
          });
        }
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
