import { replayInOwnProcess } from './replay-process.js';

/**
 * `transfergate replay`: runs the replay in a process of its own with the replay's Node options
 * (replay-process.ts) before anything else of the entry is evaluated. main.ts imports this module
 * first, and its top-level await holds the rest of the bundle (Nest, the contracts, the providers:
 * most of the entry's 0.8 s start) until the replay's process has exited, so the waiting process
 * stays small.
 */
if (process.argv[2] === 'replay') {
  const exitCode = await replayInOwnProcess();
  if (exitCode !== undefined) process.exit(exitCode);
}
