import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on now, for a server process the bench starts. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
