// Ports for tests that need a target nobody answers on.
import { createServer } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on: bound, then released. */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
