import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `npm test` must fail when a test fails. The global teardown once awaited an unref'd timer: node
 * exited inside it with code 0, before jest set the run's exit code, and every failing run passed.
 * This runs jest as `npm test` does (same config, teardown included) on one failing test.
 */
describe('the test command', () => {
  it('exits non-zero when a test fails', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--experimental-vm-modules',
        'node_modules/jest/bin/jest.js',
        '--runInBand',
        '--forceExit',
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
