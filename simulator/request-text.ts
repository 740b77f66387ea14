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

const NOT_ASCII = /[\x80-\xff]/;

/** A body read as latin1 (one char per byte), as the UTF-8 text it is. */
export function utf8(latin1: string): string {
  return NOT_ASCII.test(latin1) ? Buffer.from(latin1, 'latin1').toString('utf8') : latin1;
}
