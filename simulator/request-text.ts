// The text of the simulator's HTTP/1.1 requests, and the answers' bodies read back as UTF-8: the
// few lines every request path (devices, the driver) builds its bytes with.
/** A JSON request's text up to its content-length value; `headers`: more header lines, each ending in CRLF. */
export function jsonRequestHead(method: string, path: string, host: string, headers = ''): string {
  return `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n${headers}content-type: application/json\r\ncontent-length: `;
}

/** An HTTP/1.1 request's text; a body is JSON; `headers`: more header lines, each ending in CRLF. */
export function requestText(method: string, path: string, host: string, body?: string, headers = ''): string {
  if (body === undefined) return `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n${headers}\r\n`;
  return `${jsonRequestHead(method, path, host, headers)}${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/**
 * A JSON request's bytes from its head (jsonRequestHead's text, encoded once) and an ASCII body (its
 * length in chars is its length in bytes). Written into a Buffer piece by piece: the text the
 * other requests are, a string built piece by piece, is flattened (copied whole) before the socket
 * can encode it, head included.
 */
export function asciiJsonRequest(head: Uint8Array, body: string): Buffer {
  const length = body.length;
  let digits = 1;
  for (let rest = length; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  const bytes = Buffer.allocUnsafe(head.length + digits + 4 + length);
  bytes.set(head);
  let at = head.length + digits;
  for (let rest = length, k = at - 1; k >= head.length; k--, rest = Math.floor(rest / 10)) bytes[k] = 48 + (rest % 10);
  bytes[at++] = 13; // \r\n\r\n
  bytes[at++] = 10;
  bytes[at++] = 13;
  bytes[at++] = 10;
  bytes.write(body, at, 'latin1');
  return bytes;
}

const NOT_ASCII = /[\x80-\xff]/;

/** A body read as latin1 (one char per byte), as the UTF-8 text it is. */
export function utf8(latin1: string): string {
  return NOT_ASCII.test(latin1) ? Buffer.from(latin1, 'latin1').toString('utf8') : latin1;
}
