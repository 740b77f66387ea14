// The floor of an evenly paced load, for `dhi bench --simulator`: the least a client spends per
// request when it sends each request at its own time, as dhi simulate's open model does, over one
// connection set per device (another connection when the device's are busy), instead of in
// autocannon's bursts (its rate limit sends each connection's quota for a second back to back at
// the start of that second, so the process wakes up far less often per request). Raw sockets, one
// request text, answers counted by their framing: no metrics, promises or objects per request.
// Measured next to dhi simulate, it tells what the shape of the load costs apart from what the
// simulator adds.
//
// It paces with dhi simulate's own arrivals and pacer (arrivals.ts, pacer.ts: a send within about
// a millisecond of its time, an answer's wake-up sending what is due by then), so both sides wake
// as often per request and the ratio is the simulator's code, not a difference in precision. On a
// VM a wake-up costs tens of µs of CPU: a floor whose whole-millisecond timer sent two arrivals a
// wake, one of them late, cost less per request only by pacing worse (send lag p99 1.28 ms against
// the simulator's 0.70). Each send's lag is recorded as dhi simulate's is (how late it left after
// its intended time, an early send counting as 0), so that the bench shows both sides paced alike.
import { connect, type Socket } from 'node:net';
import { startArrivals } from './arrivals.js';
import { createHistogram, latencyStats, recordMicros } from './histograms.js';
import { createPacer } from './pacer.js';
import type { SendSummary } from './report/summary.js';
import { headerValue } from './response-parser.js';

export interface PacedFloorOptions {
  /** http: origin of the server. */
  url: string;
  path: string;
  body: string;
  /** Requests per second. */
  rate: number;
  durationMs: number;
  /** Arrivals go to the devices in turn; each has connections of its own. */
  devices: number;
  /** The sends whose send lag is recorded: those meant for this part of the load (ms after it began); all of them without it. */
  lagWindow?: { fromMs: number; ms: number };
}

/** Send lag (ms): how late requests left after their intended time, an early send counting as 0, as dhi simulate's summary reports it. */
export type SendLagFigures = SendSummary['lagMs'];

/**
 * The send lag of the sends meant for [fromMs, toMs) of the load, in the simulator's histograms (no
 * allocation per send). `record` takes a send's intended time and the time it left (ms, one clock).
 */
export function sendLagRecorder(fromMs = 0, toMs = Infinity) {
  const lag = createHistogram();
  return {
    record(dueMs: number, sentMs: number): void {
      if (dueMs >= fromMs && dueMs < toMs) recordMicros(lag, Math.max(0, sentMs - dueMs) * 1000);
    },
    figures(): SendLagFigures {
      const { p50, p99, max } = latencyStats(lag);
      return { p50, p99, max };
    },
  };
}

const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
/** How long answers still in flight are waited for after the last send. */
const DRAIN_MS = 5_000;

interface Conn {
  socket: Socket;
  buffer: string;
  idle: Conn[];
}

/** A paced load under way: the answers so far at any time, and its end. */
export interface PacedFloorRun {
  answered(): number;
  /** Resolves with the number of answers received, the connections opened and the send lag (of the sends meant for `lagWindow`). */
  done: Promise<{ answered: number; connections: number; sendLagMs: SendLagFigures }>;
}

/** Starts the paced load. */
export function pacedFloorRun(options: PacedFloorOptions): PacedFloorRun {
  const { hostname, port, host } = new URL(options.url);
  const request = `POST ${options.path} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(options.body)}\r\n\r\n${options.body}`;
  const idle: Conn[][] = Array.from({ length: options.devices }, () => []);
  const all: Conn[] = [];
  const total = Math.floor((options.durationMs * options.rate) / 1000);
  let answered = 0;
  let issued = 0;
  const lagWindow = options.lagWindow;
  const lag = sendLagRecorder(lagWindow?.fromMs, lagWindow && lagWindow.fromMs + lagWindow.ms);
  const pacer = createPacer();

  const done: PacedFloorRun['done'] = new Promise((resolve, reject) => {
    let drain: NodeJS.Timeout | undefined;
    const finish = () => {
      arrivals.stop();
      pacer.clear();
      clearTimeout(drain);
      for (const conn of all) conn.socket.destroy();
      resolve({ answered, connections: all.length, sendLagMs: lag.figures() });
    };

    /** Counts the complete answers in the buffer (status line, headers, content-length bytes). */
    const onData = (conn: Conn, chunk: string): boolean => {
      conn.buffer += chunk;
      for (;;) {
        const headEnd = conn.buffer.indexOf('\r\n\r\n');
        if (headEnd < 0) break;
        const length = Number(headerValue(conn.buffer.slice(0, headEnd).toLowerCase(), '\r\ncontent-length:') ?? 0);
        if (conn.buffer.length < headEnd + 4 + length) break;
        conn.buffer = conn.buffer.slice(headEnd + 4 + length);
        answered++;
        conn.idle.push(conn);
        if (issued === total && answered === issued) finish();
      }
      // The loop woke for this answer: what is due by now goes on this wake, as dhi simulate's wire does.
      pacer.realign();
      return true;
    };

    const send = (device: number) => {
      let conn = idle[device].pop();
      if (!conn) {
        // Read as the simulator's wire does: into one shared buffer, past the stream machinery.
        const socket: Socket = connect({ host: hostname, port: Number(port), onread: { buffer: READ_BUFFER, callback: (bytes) => onData(opened, READ_BUFFER.toString('latin1', 0, bytes)) } });
        const opened: Conn = { socket, buffer: '', idle: idle[device] };
        socket.setNoDelay(true);
        socket.on('error', (error) => {
          reject(error);
          finish();
        });
        all.push(opened);
        conn = opened;
      }
      conn.socket.write(request);
    };

    const startAt = pacer.now();
    const arrivals = startArrivals(pacer, {
      rate: options.rate,
      startAt,
      send(intendedAt) {
        lag.record(intendedAt - startAt, pacer.now() - startAt);
        send(issued++ % options.devices);
        if (issued < total) return;
        arrivals.stop();
        if (answered === issued) finish();
        else drain = setTimeout(finish, DRAIN_MS);
      },
    });
    if (total === 0) finish();
  });
  return { answered: () => answered, done };
}
