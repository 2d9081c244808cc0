import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../support/test-app.js';

/**
 * A start that fails after the embedded database is open (here: callback settings the dispatcher
 * refuses when it starts, after the ledger's projection has started) closes what it opened. Before,
 * the PGlite instance, its data directory's lock and the running projection stayed behind: the next
 * start in the same process was refused as "in use" by this very process, and the leftovers (PGlite's
 * own timers) kept the process alive after the test run.
 */
describe('a failed start releases the embedded store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tg-failed-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses bad callback settings, then starts on the same data directory', async () => {
    await expect(startTestApp('pglite', { dataDir, callbacks: { concurrency: 0 } })).rejects.toThrow(
      /invalid callback settings: concurrency must be ≥ 1/,
    );
    const app = await startTestApp('pglite', { dataDir });
    try {
      const health = await fetch(`${app.baseUrl}/api`);
      expect(health.status).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
