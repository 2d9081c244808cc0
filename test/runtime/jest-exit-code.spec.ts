import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The flags `npm test` gives jest (its workers, --forceExit), read from package.json's test script. */
function npmTestJestFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: { test: string } };
  const jest = /node_modules\/jest\/bin\/jest\.js((?: --[\w-]+(?:=\S+)?)*)\s*$/.exec(scripts.test);
  if (!jest) throw new Error(`npm test does not end with a jest command: ${scripts.test}`);
  return jest[1]!.trim().split(/\s+/);
}

/**
 * `npm test` must fail when a test fails. The global teardown once awaited an unref'd timer: node
 * exited inside it with code 0, before jest set the run's exit code, and every failing run passed.
 * This runs jest as `npm test` does (same config, flags and teardown) on one failing test, in the
 * integration project only (the fixture would otherwise match both projects).
 */
describe('the test command', () => {
  it('exits non-zero when a test fails', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--experimental-vm-modules',
        'node_modules/jest/bin/jest.js',
        ...npmTestJestFlags(),
        '--selectProjects',
        'integration',
        '--testMatch',
        '**/test/support/fixtures/always-fails.fixture.ts',
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.error).toBeUndefined();
    expect(run.stderr).toContain('fails on purpose');
    expect(run.stderr).toMatch(/Tests:\s+1 failed/);
    expect(run.status).toBe(1);
  });
});
