// A refused request whose body is still arriving (401 before the body, 413 on a large upload) is
// answered with Connection: close, and Node then destroys the socket as soon as the answer is
// flushed. The client's body bytes are still unread at that moment, so the kernel answers them with
// a reset, and a client that is busy writing gets ECONNRESET before it has read the answer (seen
// under load as "413 expected, no answer"). Instead, as web servers do, the socket is half-closed
// after the answer and stops reading: the client's writes stall (the receive window fills, so
// the body is still not read to its end), it reads the answer and the FIN, and the connection is
// dropped LINGER_MS later. A timer per refused upload: a rare path, never a poll's.
import type { Socket } from 'node:net';

export const LINGER_MS = 1000;

/** Makes Node's end-of-response close of this socket a lingering one (for this connection only). */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = lingeringDestroySoon;
}

function lingeringDestroySoon(this: Socket): void {
  this.pause();
  this.end();
  setTimeout(destroySocket, LINGER_MS, this).unref();
}

function destroySocket(socket: Socket): void {
  socket.destroy();
}
