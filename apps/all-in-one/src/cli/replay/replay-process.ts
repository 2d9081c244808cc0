import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * The Node options a replay runs with: a young generation of 64 MB semi-spaces instead of V8's
 * 16 MB. A replay streams pages of events through the process (and through its reader thread, which
 * inherits the option) while the projection holds its rows: with the default size the scavenger
 * stopped the two threads about 800 times per million events, copying the pages in flight each time
 * (12.6 s of pauses in the bench's replay phase; 4.6 s with 64 MB), and in ten alternating pairs the
 * replay ran a median 1.14× as fast with 64 MB, three pairs even. V8 sizes its heap when the process starts,
 * so the option has to be on the command line: `replay` runs itself again with it (`replayInOwnProcess`). The
 * server keeps V8's default, which its idle memory goal depends on.
 */
export const REPLAY_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=64'];

/** Signals passed on to the replay's process, once each (its own handling decides what they mean). */
const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** A process ended by a signal exits with 128 + its number, as a shell reports it. */
const SIGNAL_EXIT_BASE = 128;

/** The exit code of a process ended by `signal` (130 for SIGINT, 143 for SIGTERM), as a shell reports it. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return SIGNAL_EXIT_BASE + constants.signals[signal];
}

/** True when this process already runs with the replay's options (given by us or by the user). */
export function hasReplayNodeOptions(execArgv: readonly string[], nodeOptions = ''): boolean {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)];
  return given.some((option) => option.startsWith('--max-semi-space-size'));
}

/**
 * Runs `node <REPLAY_NODE_OPTIONS> <this script> <the same arguments>` and resolves with its exit
 * code, or undefined when this process is already that one (the caller then replays here).
 *
 * The replay's process gets a process group of its own (`detached`), so a Ctrl-C in the terminal
 * reaches it once, through this process, and a second Ctrl-C still ends it at once, as when the
 * replay ran here. stdio is shared: its output, its progress bar and its exit code are the command's.
 * If this process is killed without a signal it can pass on (SIGKILL), the replay's process notices
 * through their IPC channel (onStarterGone) and stops as on a Ctrl-C.
 */
export async function replayInOwnProcess(): Promise<number | undefined> {
  if (hasReplayNodeOptions(process.execArgv, process.env.NODE_OPTIONS)) return undefined;
  const script = process.argv[1];
  if (!script) return undefined;
  const child = spawn(
    process.execPath,
    [...REPLAY_NODE_OPTIONS, ...process.execArgv, script, ...process.argv.slice(2)],
    {
      // The IPC channel is how the replay's process learns that this one is gone (onStarterGone).
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      detached: true,
    },
  );
  // Once started, an error event can only be a signal that could not be passed on (the process has
  // just exited): its exit is what counts.
  child.on('error', () => undefined);
  // Not started at all (no pid; the error follows on the next tick): the replay runs here instead,
  // with V8's default heap. Never both: a started process is always waited for.
  if (child.pid === undefined) return undefined;
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  try {
    return await new Promise<number>((resolve) => {
      child.once('exit', (code, signal) => {
        resolve(code ?? (signal ? signalExitCode(signal) : SIGNAL_EXIT_BASE));
      });
    });
  } finally {
    for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
  }
}

/**
 * In the replay's own process: calls `stop` once if the process that started it goes away without
 * passing a signal on (SIGKILL, a crash), so the replay stops as on a Ctrl-C and drops its scratch
 * schema instead of running on unwatched. Returns the undo. Without an IPC channel (the replay runs
 * where it was started) there is nobody to outlive and nothing is done.
 */
export function onStarterGone(stop: () => void): () => void {
  if (!process.channel) return () => undefined;
  // The channel must not keep the process alive once the replay is done.
  process.channel.unref();
  process.once('disconnect', stop);
  return () => process.off('disconnect', stop);
}
