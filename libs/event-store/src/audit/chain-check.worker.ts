import { parentPort } from 'node:worker_threads';
import { ChainVerifier } from '../store/event-chain.js';
import { pageEvents, type FromWorker, type PageLink, type ToWorker } from './chain-check-protocol.js';

/**
 * The replay's hash-chain check on a thread of its own (chain-check.ts starts it): the same
 * ChainVerifier, fed the pages in global order, answering each message in order.
 */
if (!parentPort) throw new Error('chain-check.worker runs as a worker thread');
const port = parentPort;
const verifier = new ChainVerifier();
const STAND_IN = Object.freeze({ commitXid: '0', seq: '0' });

port.on('message', (message: ToWorker) => {
  let reply: FromWorker;
  try {
    if (message.kind === 'page') {
      const events = pageEvents(message.fields, STAND_IN);
      const broken: PageLink[] = [];
      for (let index = 0; index < events.length; index++) {
        const link = verifier.accept(events[index]!);
        if (link) {
          const { position: _standIn, ...rest } = link;
          broken.push({ ...rest, index });
        }
      }
      reply = { kind: 'page', checked: events.length, broken };
    } else {
      reply = { kind: 'heads', result: verifier.checkHeads(message.heads) };
    }
  } catch (error) {
    reply = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
