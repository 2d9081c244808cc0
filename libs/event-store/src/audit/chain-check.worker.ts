import { parentPort, workerData } from 'node:worker_threads';
import { BoundedChainCheck, cannotSpill } from './bounded-chain-check.js';
import {
  pageEvents,
  type FromWorker,
  type PageLink,
  type StreamHead,
  type ToWorker,
  type WorkerSettings,
} from './chain-check-protocol.js';

/**
 * The replay's hash-chain check on a thread of its own (chain-check.ts starts it): the same
 * ChainVerifier, fed the pages in global order, answering each message in order. It has no
 * database, so it holds at most `maxStreamHeads` streams and fails past them (a pass over a store
 * with more streams checks on the calling thread, which can spill: audit-pass.ts).
 */
if (!parentPort) throw new Error('chain-check.worker runs as a worker thread');
const port = parentPort;
const { maxStreamHeads } = workerData as WorkerSettings;
const chain = new BoundedChainCheck(maxStreamHeads, cannotSpill(maxStreamHeads));
const STAND_IN = Object.freeze({ commitXid: '0', seq: '0' });

async function answer(message: ToWorker): Promise<FromWorker> {
  if (message.kind === 'heads') return { kind: 'heads', result: await chain.checkHeads(() => onePage(message.heads)) };
  const events = pageEvents(message.fields, STAND_IN);
  const broken: PageLink[] = [];
  await chain.checkPage(events, (link, index) => {
    const { position: _standIn, ...rest } = link;
    broken.push({ ...rest, index });
  });
  return { kind: 'page', checked: events.length, broken };
}

/** A page of recorded heads as the check reads them (the sender reads the pages and sends each). */
async function* onePage(heads: StreamHead[]): AsyncGenerator<StreamHead[]> {
  yield heads;
}

// One message at a time, in the order they came: the check is async only where it fails.
let previous: Promise<void> = Promise.resolve();
port.on('message', (message: ToWorker) => {
  previous = previous.then(async () => {
    let reply: FromWorker;
    try {
      reply = await answer(message);
    } catch (error) {
      reply = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
});
