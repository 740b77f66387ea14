// The hostile halves of the robustness benchmark: generated malformed requests, and a slow-client
// attack measured against a good client's latency.
import { build } from 'hdr-histogram-js';
import { request, Pool } from 'undici';
import { closesWithin, connectRaw, pathPrefix, trickle, type RawConnection } from '../../conformance/raw-socket.js';

/** mulberry32: a small seeded generator, so that a run's malformed requests can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Malformed {
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string | Buffer;
  contentType?: string;
}

type Generator = (token: string, random: () => number) => Malformed;
const pick = <T>(random: () => number, items: readonly T[]) => items[Math.floor(random() * items.length)];
const depth = (random: () => number) => 1000 + Math.floor(random() * 20_000);
const writePaths = (token: string) => [`/api/v1/${token}/telemetry`, `/api/v1/${token}/attributes`, `/api/v1/${token}/rpc`, `/api/v1/${token}/claim`, '/api/v1/provision', '/api/auth/login'];

const GENERATORS: Record<string, Generator> = {
  randomBytes: (token, random) => ({ kind: 'randomBytes', method: 'POST', path: pick(random, writePaths(token)), body: Buffer.from(Array.from({ length: 1 + Math.floor(random() * 512) }, () => Math.floor(random() * 256))) }),
  truncatedJson: (token, random) => {
    const text = JSON.stringify({ a: 1, b: [1, 2, { c: 'x' }], ts: Date.now(), values: { d: 2.5 } });
    return { kind: 'truncatedJson', method: 'POST', path: pick(random, writePaths(token)), body: text.slice(0, Math.floor(random() * text.length)) };
  },
  deepNesting: (token, random) => {
    const n = depth(random);
    const body = random() < 0.5 ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    return { kind: 'deepNesting', method: 'POST', path: pick(random, writePaths(token)), body };
  },
  hugeNumbers: (token, random) => ({ kind: 'hugeNumbers', method: 'POST', path: pick(random, writePaths(token)),
    body: pick(random, ['{"ts":1e300,"values":{"a":1}}', '{"n":1e400}', `{"n":${'9'.repeat(400)}}`, '{"n":-1e400}', '{"durationMs":1e308,"secretKey":"k"}']) }),
  invalidUtf8: (token, random) => ({ kind: 'invalidUtf8', method: 'POST', path: pick(random, writePaths(token)), body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]) }),
  wrongContentType: (token, random) => ({ kind: 'wrongContentType', method: 'POST', path: pick(random, writePaths(token)), body: '<a>1</a>',
    contentType: pick(random, ['application/xml', 'text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'image/png']) }),
  badQuery: (token, random) => ({ kind: 'badQuery', method: 'GET',
    path: pick(random, [`/api/v1/${token}/rpc?timeout=abc`, `/api/v1/${token}/attributes/updates?timeout=-5`, `/api/v1/${token}/firmware?title=a&version=b&size=1e308&chunk=1e308`, '/api/tenant/devices?pageSize=1e308&page=1e308', `/api/v1/${token}/attributes?clientKeys=${'k,'.repeat(2000)}`]) }),
  badPath: (_token, random) => ({ kind: 'badPath', method: 'GET', path: pick(random, ['/api/v1/%E0%A4%A/attributes', `/api/v1/${'t'.repeat(5000)}/attributes`, '//api/v1//rpc', '/api/v1/%00/telemetry', '/api/device/%ZZ']) }),
};

export interface MalformedResult {
  requests: number;
  byStatusClass: Record<string, number>;
  serverErrors: number;
  serverErrorsByKind: Record<string, number>;
  networkErrors: number;
  answersAfterwards: boolean;
}

/** Sends `count` generated malformed requests (`concurrency` at a time) and counts the answers. */
export async function malformedRequests(base: string, token: string, count: number, seed: number, concurrency = 16): Promise<MalformedResult> {
  const random = seeded(seed);
  const kinds = Object.keys(GENERATORS);
  const pool = new Pool(base, { connections: concurrency });
  const result: MalformedResult = { requests: count, byStatusClass: {}, serverErrors: 0, serverErrorsByKind: {}, networkErrors: 0, answersAfterwards: false };
  const jobs = Array.from({ length: count }, (_, i) => GENERATORS[kinds[i % kinds.length]](token, random));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      try {
        const res = await pool.request({ method: job.method, path: job.path, body: job.body, headers: { 'content-type': job.contentType ?? 'application/json' } });
        await res.body.dump();
        const cls = `${Math.floor(res.statusCode / 100)}xx`;
        result.byStatusClass[cls] = (result.byStatusClass[cls] ?? 0) + 1;
        if (res.statusCode >= 500) {
          result.serverErrors++;
          result.serverErrorsByKind[job.kind] = (result.serverErrorsByKind[job.kind] ?? 0) + 1;
        }
      } catch {
        result.networkErrors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await pool.close();
  const after = await request(`${base}/api/v1/${token}/telemetry`, { method: 'POST', body: '{"after":1}', headers: { 'content-type': 'application/json' } });
  await after.body.dump();
  result.answersAfterwards = after.statusCode === 200;
  return result;
}

export interface SlowClientResult {
  slowClients: number;
  closedWithinBound: number;
  boundMs: number;
  goodRequests: number;
  goodErrors: number;
  goodP50Ms: number;
  goodP99Ms: number;
  goodMaxMs: number;
}

/**
 * Opens `clients` slow clients (half trickle headers, half trickle a body) while one good client
 * posts telemetry back to back; every slow client must be closed within `boundMs`.
 */
export async function slowClientAttack(base: string, token: string, clients: number, boundMs: number): Promise<SlowClientResult> {
  const host = new URL(base).host;
  const prefix = pathPrefix(base);
  const slow: Promise<boolean>[] = [];
  for (let i = 0; i < clients; i++) {
    slow.push((async () => {
      let connection: RawConnection;
      try {
        connection = await connectRaw(base);
      } catch {
        return false;
      }
      const bodyFirst = i % 2 === 1;
      if (bodyFirst) await connection.write(`POST ${prefix}/api/v1/${token}/telemetry HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`);
      void trickle(connection, bodyFirst ? 'x'.repeat(100_000) : `GET ${prefix}/api/v1/${token}/attributes HTTP/1.1\r\nHost: ${host}\r\n${'X-Slow: 1\r\n'.repeat(5000)}`, 250, boundMs);
      const closed = await closesWithin(connection, boundMs);
      connection.destroy();
      return closed;
    })());
  }
  const latencies = build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  let goodRequests = 0;
  let goodErrors = 0;
  let attacking = true;
  const attack = Promise.all(slow).finally(() => (attacking = false));
  const pool = new Pool(base, { connections: 1 });
  while (attacking) {
    const started = process.hrtime.bigint();
    try {
      const res = await pool.request({ method: 'POST', path: `${prefix}/api/v1/${token}/telemetry`, body: `{"good":${goodRequests}}`, headers: { 'content-type': 'application/json' } });
      await res.body.dump();
      if (res.statusCode !== 200) goodErrors++;
    } catch {
      goodErrors++;
    }
    latencies.recordValue(Number(process.hrtime.bigint() - started) / 1000);
    goodRequests++;
  }
  await pool.close();
  const closed = (await attack).filter(Boolean).length;
  return {
    slowClients: clients, closedWithinBound: closed, boundMs, goodRequests, goodErrors,
    goodP50Ms: latencies.getValueAtPercentile(50) / 1000, goodP99Ms: latencies.getValueAtPercentile(99) / 1000, goodMaxMs: latencies.maxValue / 1000,
  };
}
