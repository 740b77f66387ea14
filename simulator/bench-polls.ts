// `dhi bench --hold-polls N`: what open long polls cost the reference server. N attribute polls are
// opened on raw sockets (one request each, a timeout longer than the measurement) and held while
// the server reports its resident memory; the RSS above idle, divided by the polls it holds, is
// the cost of one poll. Telemetry is then measured while the polls stay open.
import { connect, type Socket } from 'node:net';

export interface ServerMemory {
  rssBytes: number;
  /** Attribute polls the server holds open. */
  openPolls: number;
}

export interface PollFigures {
  requested: number;
  open: number;
  rssIdleBytes: number;
  rssHoldingBytes: number;
  bytesPerPoll: number;
}

export interface HeldPolls {
  figures: PollFigures;
  /** Close every poll's connection. */
  release(): void;
}

// Several loopback source addresses, so that a large N never runs out of ephemeral ports.
const SOURCE_ADDRESSES = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];
const OPEN_WITHIN_MS = 120_000;
// A poll timeout longer than any measurement here: the polls end when the bench closes them.
const POLL_TIMEOUT_MS = 300_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function holdPolls(url: string, token: string, n: number, memory: () => Promise<ServerMemory>): Promise<HeldPolls> {
  const { hostname, port } = new URL(url);
  const idle = await memory();
  const request = `GET /api/v1/${encodeURIComponent(token)}/attributes/updates?timeout=${POLL_TIMEOUT_MS} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`;
  const sockets: Socket[] = [];
  const failures: Error[] = [];
  for (let i = 0; i < n; i++) {
    const localAddress = hostname === '127.0.0.1' ? SOURCE_ADDRESSES[i % SOURCE_ADDRESSES.length] : undefined;
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    socket.on('error', (error) => failures.push(error));
    socket.write(request);
    sockets.push(socket);
    // Let the server accept as we go instead of overflowing its backlog.
    if (i % 1000 === 999) await pause(100);
  }
  const release = () => sockets.forEach((s) => s.destroy());
  let holding = await memory();
  for (const until = Date.now() + OPEN_WITHIN_MS; holding.openPolls < n && Date.now() < until && failures.length === 0;) {
    await pause(500);
    holding = await memory();
  }
  if (holding.openPolls < n) {
    release();
    throw new Error(`the server holds ${holding.openPolls} of ${n} polls${failures.length ? `; first socket error: ${failures[0].message}` : ''}`);
  }
  const figures = {
    requested: n,
    open: holding.openPolls,
    rssIdleBytes: idle.rssBytes,
    rssHoldingBytes: holding.rssBytes,
    bytesPerPoll: Math.round((holding.rssBytes - idle.rssBytes) / holding.openPolls),
  };
  return { figures, release };
}
