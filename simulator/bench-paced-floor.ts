// The floor of an evenly paced load, for `dhi bench --simulator`: the least a client spends per
// request when it sends at a fixed rate in slots of a few milliseconds, as dhi simulate's open
// model does (arrivals.ts), instead of in autocannon's bursts (its rate limit sends each
// connection's quota for a second back to back at the start of that second, so the process wakes
// up far less often per request). Raw keep-alive sockets, one request text, answers counted by
// their framing: no devices, metrics, promises or timers per request. Measured between autocannon
// and dhi simulate, it tells what the shape of the load costs apart from what the simulator adds.
// It paces as arrivals.ts does but without it: that scheduler hands each arrival a promise to
// track, which is part of what the floor leaves out.
import { connect, type Socket } from 'node:net';
import { headerValue } from './h1-client.js';

export interface PacedFloorOptions {
  /** http: origin of the server. */
  url: string;
  path: string;
  body: string;
  /** Requests per second. */
  rate: number;
  durationMs: number;
  connections: number;
  slotMs: number;
}

/** How long answers still in flight are waited for after the last send. */
const DRAIN_MS = 5_000;

interface Conn {
  socket: Socket;
  buffer: string;
}

/** Runs the paced load; resolves with the number of answers received. */
export function pacedFloorRun(options: PacedFloorOptions): Promise<number> {
  const { hostname, port, host } = new URL(options.url);
  const request = `POST ${options.path} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(options.body)}\r\n\r\n${options.body}`;
  const idle: Conn[] = [];
  const all: Conn[] = [];
  let answered = 0;
  let issued = 0;
  /** Due arrivals that found every connection busy: sent as answers free one. */
  let backlog = 0;

  return new Promise((resolve, reject) => {
    let drainTimer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearInterval(slots);
      clearTimeout(drainTimer);
      for (const conn of all) conn.socket.destroy();
      resolve(answered);
    };
    const send = (conn: Conn) => conn.socket.write(request);

    /** Counts the complete answers in the buffer (status line, headers, content-length bytes). */
    const onData = (conn: Conn, chunk: string) => {
      conn.buffer += chunk;
      for (;;) {
        const headEnd = conn.buffer.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const length = Number(headerValue(conn.buffer.slice(0, headEnd).toLowerCase(), '\r\ncontent-length:') ?? 0);
        if (conn.buffer.length < headEnd + 4 + length) return;
        conn.buffer = conn.buffer.slice(headEnd + 4 + length);
        answered++;
        if (backlog > 0) {
          backlog--;
          send(conn);
        } else idle.push(conn);
        if (drainTimer && answered === issued) finish();
      }
    };

    for (let i = 0; i < options.connections; i++) {
      const conn: Conn = { socket: connect({ host: hostname, port: Number(port) }), buffer: '' };
      conn.socket.setNoDelay(true);
      conn.socket.setEncoding('latin1'); // one char per byte: lengths count bytes
      conn.socket.on('data', (chunk: string) => onData(conn, chunk));
      conn.socket.on('error', (error) => {
        finish();
        reject(error);
      });
      all.push(conn);
      idle.push(conn);
    }

    const start = performance.now();
    const slots = setInterval(() => {
      const elapsed = Math.min(performance.now() - start, options.durationMs);
      // Arrivals whose time falls in a finished slot are due, as in arrivals.ts.
      const due = Math.floor((Math.floor(elapsed / options.slotMs) * options.slotMs * options.rate) / 1000);
      for (; issued < due; issued++) {
        const conn = idle.pop();
        if (conn) send(conn);
        else backlog++;
      }
      if (elapsed >= options.durationMs && !drainTimer) {
        clearInterval(slots);
        if (answered === issued) return finish();
        drainTimer = setTimeout(finish, DRAIN_MS);
      }
    }, options.slotMs);
  });
}
