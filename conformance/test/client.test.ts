import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client.js';
import { createHttpTarget, curlLine, describeBody, queryString, RequestFailed } from '../client.js';

describe('the HTTP client', () => {
  it('builds query strings: arrays as repeated parameters, raw strings as given', () => {
    expect(queryString({ sharedKeys: ['a', 'b'], timeout: 500, skip: undefined })).toBe('?sharedKeys=a&sharedKeys=b&timeout=500');
    expect(queryString('clientKeys=a,b')).toBe('?clientKeys=a,b');
    expect(queryString('')).toBe('');
  });

  it('writes curl lines that survive the shell and never show the JWT', () => {
    const line = curlLine('POST', 'http://h/x', { 'content-type': 'application/json', 'x-authorization': 'Bearer secret.jwt' }, `{"a":"it's"}`, true);
    expect(line).toBe(`curl -sS -i -k -X POST 'http://h/x' -H 'content-type: application/json' -H "x-authorization: Bearer $DHI_JWT" --data-binary '{"a":"it'\\''s"}'`);
    expect(curlLine('POST', 'http://h/u', { 'content-type': 'multipart/form-data; boundary=x' }, { field: 'file', fileName: 'fw.bin', contentType: 'application/octet-stream', bytes: Buffer.from('x') }, false))
      .toBe(`curl -sS -i -X POST 'http://h/u' -F 'file=@fw.bin;type=application/octet-stream'`);
  });

  it('shows binary bodies by size and checksum', () => {
    expect(describeBody(Buffer.from([0, 1, 2]), 'application/octet-stream')).toMatch(/^<3 bytes, sha256 [0-9a-f]{64}>$/);
    expect(describeBody('{"a":1}', 'application/json')).toBe('{"a":1}');
  });

  it('records every exchange over a real socket, and aborts at the deadline', async () => {
    const server = createServer((req, res) => {
      if (req.url?.includes('/hold')) return; // never answers
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = createHttpTarget({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix/`, insecure: false, connections: 2, requestTimeoutMs: 5000 });
    const exchanges: Exchange[] = [];
    try {
      const reply = await target.send({ method: 'GET', path: '/a', query: { k: ['1', '2'] } }, 'device', (e) => exchanges.push(e));
      expect(reply).toMatchObject({ status: 200, mediaType: 'application/json', json: { ok: true } });
      const held = target.send({ method: 'GET', path: '/hold', deadlineMs: 100 }, 'device', (e) => exchanges.push(e));
      await expect(held).rejects.toThrow(RequestFailed);
      await expect(held).rejects.toMatchObject({ timedOut: true });
      expect(exchanges[0].request.url).toMatch(/\/prefix\/a\?k=1&k=2$/);
      expect(exchanges[1].error).toBe('no answer within 100 ms (aborted)');
    } finally {
      server.closeAllConnections();
      server.close();
      await target.close();
    }
  });
});
