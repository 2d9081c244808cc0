import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { PostgresEventStore, type SqlDatabase } from '@transfergate/event-store';
import { runReplayCommand, type ReplayInterruptions } from '../../apps/all-in-one/src/cli/replay/replay-command.js';
import { openTestPostgres, TEST_DATABASE_URL } from '../support/postgres.js';
import { ownScratchSchemas } from '../support/scratch-schemas.js';

/**
 * `transfergate replay` stopped by SIGINT or SIGTERM exits as the signal would have ended it (130,
 * 143), not as a failure (1), and leaves no scratch schema. The command runs in this process against
 * a real store; the signal comes from an interruption source of the test's own (this process's
 * signals and IPC channel are the test runner's), right after the command starts: the replay checks
 * for it after its first page, before it projects anything.
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

  /** An interruption source the test fires by hand, recording whether the command let go of it. */
  function interruptionsByHand() {
    const state: { stop?: (signal?: NodeJS.Signals) => void; listening: boolean } = { listening: false };
    const source: ReplayInterruptions = {
      listen(stop) {
        state.stop = stop;
        state.listening = true;
        return () => (state.listening = false);
      },
    };
    return { source, state };
  }

  const replayOnTheStore = (source: ReplayInterruptions) =>
    runReplayCommand(['--json', '--no-progress', '--schema', db.schema], { DATABASE_URL: TEST_DATABASE_URL }, source);

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'by %s exits %i, says so, and drops its scratch schema',
    async (signal, exitCode) => {
      const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const { source, state } = interruptionsByHand();
        const running = replayOnTheStore(source);
        expect(state.listening).toBe(true);
        state.stop!(signal);
        expect(await running).toBe(exitCode);
        expect(errors.mock.calls.flat().join('\n')).toContain(`replay: interrupted by ${signal}`);
        expect(await ownScratchSchemas(db)).toEqual([]);
        expect(state.listening).toBe(false);
      } finally {
        errors.mockRestore();
      }
    },
    60_000,
  );

  it('stopped without a signal (its starter gone) is a failure: exit 1', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { source, state } = interruptionsByHand();
      const running = replayOnTheStore(source);
      state.stop!();
      expect(await running).toBe(1);
      expect(errors.mock.calls.flat().join('\n')).toContain('replay failed: replay interrupted');
      expect(await ownScratchSchemas(db)).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  }, 60_000);
});
