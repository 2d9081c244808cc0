import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { PostgresEventStore, type SqlDatabase } from '@transfergate/event-store';
import { runReplayCommand } from '../../apps/all-in-one/src/cli/replay/replay-command.js';
import { openTestPostgres, TEST_DATABASE_URL } from '../support/postgres.js';

/**
 * `transfergate replay` stopped by SIGINT or SIGTERM exits as the signal would have ended it (130,
 * 143), not as a failure (1), and leaves no scratch schema. The command runs in this process against
 * a real store; the signal is delivered to the handler the command installed (not to the process,
 * which is the test runner's), right after the command starts: the replay checks for it after its
 * first page, before it projects anything.
 */
describe('an interrupted replay', () => {
  let db: SqlDatabase & { schema: string };

  beforeAll(async () => {
    db = await openTestPostgres('replay_signal');
    const store = await PostgresEventStore.create(db);
    for (let i = 0; i < 3; i++) {
      await store.append(
        `probe-${randomUUID()}`,
        [{ eventId: randomUUID(), type: 'Probe', schemaVersion: 1, data: { i } }],
        'no_stream',
      );
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  /** This process's scratch schemas (the server is shared: another process may be replaying). */
  const ownScratchSchemas = async () =>
    (
      await db.query<{ nspname: string }>(`select nspname from pg_namespace where starts_with(nspname, $1)`, [
        `tg_replay_${process.pid}_`,
      ])
    ).rows;

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'by %s exits %i, says so, and drops its scratch schema',
    async (signal, exitCode) => {
      const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      const before = new Set(process.listeners(signal));
      try {
        const running = runReplayCommand(['--json', '--no-progress', '--schema', db.schema], {
          DATABASE_URL: TEST_DATABASE_URL,
        });
        const installed = process.listeners(signal).filter((listener) => !before.has(listener));
        expect(installed).toHaveLength(1);
        (installed[0] as (signal: NodeJS.Signals) => void)(signal);
        expect(await running).toBe(exitCode);
        expect(errors.mock.calls.flat().join('\n')).toContain(`replay: interrupted by ${signal}`);
        expect(await ownScratchSchemas()).toEqual([]);
        // The command's handlers are gone with it.
        expect(process.listeners(signal).filter((listener) => !before.has(listener))).toEqual([]);
      } finally {
        errors.mockRestore();
      }
    },
    60_000,
  );
});
