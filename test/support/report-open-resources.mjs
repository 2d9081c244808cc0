/**
 * Jest's global teardown, in jest's main process: names what is still running there once every
 * suite has finished (a suite in a worker that leaves something running is named by jest itself:
 * "A worker process has failed to exit gracefully"). `npm test` passes --forceExit so a leftover never hangs
 * CI for its whole time limit; this line is what says there was one, and of what kind, so it gets
 * fixed rather than hidden (a PGlite left open shows as Timeouts: its engine re-arms its own).
 */
import { setTimeout } from 'node:timers';

export default async function reportOpenResources() {
  // Sockets and timers of the last suite's own shutdown get a moment to finish. The timer must keep
  // the process alive: an unref'd one let node exit here, with code 0, before jest set the run's
  // exit code, so a failing run passed (test/runtime/jest-exit-code.spec.ts).
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const left = process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap');
  // This process's own stdout and stderr, when they are pipes (`npm test | tee`), are not leftovers.
  for (const stream of [process.stdout, process.stderr]) {
    const index = stream._handle?.constructor?.name === 'Pipe' ? left.indexOf('PipeWrap') : -1;
    if (index >= 0) left.splice(index, 1);
  }
  if (left.length === 0) return;
  const counts = new Map();
  for (const kind of left) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const list = [...counts].map(([kind, n]) => `${kind} ×${n}`).join(', ');
  process.stderr.write(`\njest: still running after the last suite (a test left it open): ${list}\n`);
}
