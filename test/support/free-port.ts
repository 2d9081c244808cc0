import { createServer } from 'node:net';

/**
 * Below Linux's ephemeral range (32768–60999 by default): an outgoing connection (a pool's client
 * socket, say) can never hold one of these ports, so a process told to listen on it later, or
 * restarted on it after a kill, finds it free. Random ports inside the ephemeral range failed CI
 * with EADDRINUSE.
 */
const LOW_PORT = 20_000;
const HIGH_PORT = 32_767;
const MAX_TRIES = 50;

/** A port on 127.0.0.1 nobody listens on right now, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const port = LOW_PORT + Math.floor(Math.random() * (HIGH_PORT - LOW_PORT + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${LOW_PORT}..${HIGH_PORT} after ${MAX_TRIES} tries`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}
