// Raw HTTP/1.1 over node:net/tls, for what an HTTP client library will not do on purpose: send
// headers or a body slowly, stop half-way, finish a TLS handshake and then say nothing, or keep
// writing a body the server has already refused.
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface RawConnection {
  socket: Socket;
  /** Everything received so far, as latin1 text (status line and headers are ASCII). */
  received(): string;
  /** Resolves when the server (or an error) has closed the connection. */
  closed: Promise<void>;
  isClosed(): boolean;
  /** Writes and waits until the kernel took the bytes; false once the connection is gone. */
  write(data: string | Buffer): Promise<boolean>;
  destroy(): void;
}

export interface RawOptions {
  /** For an https URL: false opens only the TCP connection and never starts the TLS handshake. */
  handshake?: boolean;
  /** For an https URL: verify the server's certificate (off for self-signed test servers). */
  verify?: boolean;
}

/** Opens a connection to the origin of `baseUrl` (resolves once connected, and for TLS once the handshake is done). */
export async function connectRaw(baseUrl: string, options: RawOptions = {}): Promise<RawConnection> {
  const url = new URL(baseUrl);
  const tls = url.protocol === 'https:';
  const port = Number(url.port || (tls ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const socket: Socket = tls && options.handshake !== false
    ? tlsConnect({ host, port, servername: isIp(host) ? undefined : host, rejectUnauthorized: options.verify ?? false })
    : tcpConnect({ host, port });
  const chunks: Buffer[] = [];
  let isClosed = false;
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined); // a reset is an outcome here, seen through `closed`
  const closed = new Promise<void>((resolve) => socket.once('close', () => {
    isClosed = true;
    resolve();
  }));
  await new Promise<void>((resolve, reject) => {
    socket.once(tls && options.handshake !== false ? 'secureConnect' : 'connect', () => resolve());
    socket.once('close', () => reject(new Error(`connection to ${url.origin} closed before it was established`)));
  });
  return {
    socket,
    received: () => Buffer.concat(chunks).toString('latin1'),
    closed,
    isClosed: () => isClosed,
    write(data) {
      if (isClosed || socket.destroyed || !socket.writable) return Promise.resolve(false);
      return new Promise((resolve) => socket.write(data, (error) => resolve(!error)));
    },
    destroy: () => socket.destroy(),
  };
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** The status code of the first response received, or undefined. */
export function statusOf(received: string): number | undefined {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
  return match ? Number(match[1]) : undefined;
}

/** Waits for `closed`, or for `ms`; true when the connection closed in time. */
export async function closesWithin(connection: RawConnection, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([connection.closed.then(() => true as const), timeout]);
  clearTimeout(timer);
  return result;
}

/** Sends `text` one piece every `everyMs` until the connection closes or `maxMs` has passed. */
export async function trickle(connection: RawConnection, text: string, everyMs: number, maxMs: number): Promise<void> {
  const end = Date.now() + maxMs;
  for (let i = 0; i < text.length && Date.now() < end; i++) {
    if (!(await connection.write(text[i]))) return;
    await Promise.race([connection.closed, new Promise((resolve) => setTimeout(resolve, everyMs))]);
    if (connection.isClosed()) return;
  }
}

/** One request on its own connection (Connection: close); the status, or undefined when the connection ended without one. */
export async function rawExchange(baseUrl: string, head: string, body: string | Buffer = ''): Promise<{ status?: number; received: string }> {
  const connection = await connectRaw(baseUrl);
  await connection.write(head);
  if (body.length) await connection.write(body);
  await connection.closed;
  return { status: statusOf(connection.received()), received: connection.received() };
}

/** The path prefix of a base URL (`http://h/tb` gives `/tb`), for raw request lines. */
export function pathPrefix(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '');
}
