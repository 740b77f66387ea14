// Reading responses by their framing (response-parser.ts): the head's status and the headers the
// wire needs, found in any case and with white space around their values, the first of a header
// given twice, lookalike names ignored; bodies by length, chunks, close, or none; interim answers
// skipped; a response read in pieces; a repeated head taken as read, exactly as if parsed again.
import { describe, expect, it } from 'vitest';
import { expectResponse, Framing, newReader, readResponse, type ResponseReader, type ResponseTarget } from '../response-parser.js';

/** Feed `pieces` one after the other; the outcome after each, and the reader and target at the end. */
function read(pieces: string[], reader: ResponseReader = newReader()) {
  const target: ResponseTarget = { wantBody: true, status: 0, body: '' };
  expectResponse(reader);
  const done = pieces.map((piece) => {
    reader.buffer += piece;
    return readResponse(reader, target);
  });
  return { done, reader, target };
}

describe('reading a response', () => {
  it('reads the status, a length-framed body, and the keep-alive hint of a Fastify-style head', () => {
    const { done, reader, target } = read(['HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5\r\nDate: Thu, 26 Nov 2026 12:00:00 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=20\r\n\r\nhello']);
    expect(done).toEqual([true]);
    expect(target).toMatchObject({ status: 200, body: 'hello' });
    expect(reader).toMatchObject({ buffer: '', closeAfter: false, idleLimitMs: 19_000, framing: Framing.Length });
  });

  it('finds the headers in any case, with white space around values, and the first of a header given twice', () => {
    const { target, reader } = read(['HTTP/1.1 503 Busy\r\nCONTENT-LENGTH: \t 3 \r\nContent-Length: 7\r\nCONNECTION:  Close \r\nkEEP-aLIVE: Timeout=9\r\n\r\nbye']);
    expect(target).toMatchObject({ status: 503, body: 'bye' });
    expect(reader).toMatchObject({ closeAfter: true, idleLimitMs: 8_000, buffer: '' });
  });

  it('ignores names that only look like ours, and values that are not exactly "close"', () => {
    const { done, target, reader } = read(['HTTP/1.1 200 OK\r\nx-content-length: 2\r\ncontent-length : 2\r\nconnection: keep-alive, close\r\ncontent-length: 4\r\n\r\nabcdEXTRA']);
    expect(done).toEqual([true]);
    expect(target.body).toBe('abcd');
    expect(reader).toMatchObject({ closeAfter: false, buffer: 'EXTRA', idleLimitMs: 4_000 });
  });

  it('reads a length that is not plain digits as Number() does', () => {
    expect(read(['HTTP/1.1 200 OK\r\ncontent-length: 1e1\r\n\r\n0123456789']).target.body).toBe('0123456789');
  });

  it('reads a chunked body (any case, among other codings), trailers and all, and keeps what follows', () => {
    const { done, target, reader } = read(['HTTP/1.1 201 Created\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n5\r\nhel', 'lo\r\n3\r\n wo\r\n0\r\nx-trailer: 1\r\n\r\nHTTP/1.1']);
    expect(done).toEqual([false, true]);
    expect(target).toMatchObject({ status: 201, body: 'hello wo' });
    expect(reader.buffer).toBe('HTTP/1.1');
  });

  it('takes a 204 or 304 without a length as bodiless, and any other such answer as ending with the connection', () => {
    expect(read(['HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n'])).toMatchObject({ done: [true], target: { status: 204, body: '' } });
    const untilClose = read(['HTTP/1.1 200 OK\r\nconnection: keep-alive\r\n\r\nsome', ' more']);
    expect(untilClose.done).toEqual([false, false]);
    expect(untilClose.target.body).toBe('some more');
    expect(untilClose.reader).toMatchObject({ framing: Framing.UntilClose, closeAfter: true });
  });

  it('skips interim answers, reads a head split anywhere, and takes the keep-alive hint once a connection', () => {
    const text = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 202 Accepted\r\nKeep-Alive: timeout=5\r\nContent-Length: 2\r\n\r\nok';
    for (let cut = 1; cut < text.length; cut++) {
      const { done, target, reader } = read([text.slice(0, cut), text.slice(cut)]);
      expect(done).toEqual([false, true]);
      expect(target).toMatchObject({ status: 202, body: 'ok' });
      expect(reader.idleLimitMs).toBe(4_000);
    }
    const first = read(['HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5\r\ncontent-length: 0\r\n\r\n']).reader;
    expect(read(['HTTP/1.1 200 OK\r\nKeep-Alive: timeout=60\r\ncontent-length: 0\r\n\r\n'], first).reader.idleLimitMs).toBe(4_000);
  });

  it('reads answer after answer on one connection, each head whole or in pieces, and keeps the bytes after a body', () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\nDate: Thu, 26 Nov 2026 12:00:00 GMT\r\n\r\n';
    const { reader } = read([head + 'ok']);
    for (let cut = 1; cut < head.length + 2; cut++) {
      const again = read([(head + 'hi').slice(0, cut), (head + 'hiHTTP').slice(cut)], reader);
      expect(again.done).toEqual([false, true]);
      expect(again.target).toMatchObject({ status: 200, body: 'hi' });
      expect(reader.buffer).toBe('HTTP');
      reader.buffer = '';
    }
    // The next head says otherwise (another status and length, then the connection's end): each is read as it is.
    const other = read([head.replace('200 OK', '503 Busy').replace('length: 2', 'length: 4') + 'busy'], reader);
    expect(other.target).toMatchObject({ status: 503, body: 'busy' });
    expect(read([head + 'ok'], reader).target).toMatchObject({ status: 200, body: 'ok' });
    expect(reader.closeAfter).toBe(false);
    read(['HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n'], reader);
    expect(reader.closeAfter).toBe(true);
  });
});
