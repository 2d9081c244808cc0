import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/free-port.js';

/**
 * The API examples of docs/integrators.md ("Examples"), run as written (only the port changed) against a
 * real `npm start -- --demo` process, so the documentation cannot drift from the behaviour. README.md
 * shows one of them per API form; each of those must be one of the examples run here.
 */
const MAIN = resolve('apps/all-in-one/dist/main.js');

/** The shell blocks of a markdown file between two headings. */
function shellBlocks(file: string, from: string, to: string): string[] {
  const text = readFileSync(resolve(file), 'utf8');
  const start = text.indexOf(from);
  const end = text.indexOf(to, start + from.length);
  if (start < 0 || end < 0) throw new Error(`${file}: no section between "${from}" and "${to}"`);
  return [...text.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

function integratorExamples(): string[] {
  return shellBlocks('docs/integrators.md', '\n## Examples\n', '\n## ');
}

function readmeExamples(): string[] {
  return shellBlocks('README.md', '\n## One example per API form\n', '\n## ');
}

describe('documented API examples', () => {
  it('each README example is one of the examples docs/integrators.md runs', () => {
    const runs = integratorExamples();
    const shown = readmeExamples();
    expect(shown.length).toBeGreaterThanOrEqual(3);
    for (const example of shown)
      expect({ example, run: runs.some((block) => block.startsWith(example)) }).toEqual({ example, run: true });
  });

  it('every curl example of every form works as written against npm start -- --demo', async () => {
    expect(existsSync(MAIN)).toBe(true);
    const blocks = integratorExamples();
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
