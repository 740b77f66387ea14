// Faults of issue 9's last fidelity items: what dhi itself did before them (a deleted device's poll
// 401, trimmed key lists, the token checked before binding, odd timeouts clamped, RPC params
// re-serialised). The cases that catch them are SHOULD: the suite runs with --strict.
import { ATTRIBUTES, pathOf, queryOf, RPC_POLL, UPDATES } from './fault-kit.js';
import type { Fault, ProxyRequest, ProxyResponse } from './fault-proxy.js';

const ANY_DEVICE = /^\/api\/v1\/(?!provision)([^/?]+)\//;
/** The prefix of the suite's unknown tokens (cases/patterns.ts unknownToken). */
const UNKNOWN = 'unknown';
/** What a clamping server would make of a timeout it takes as a number. */
const CLAMPED_MS = 300;

const isPoll = (req: ProxyRequest) => req.method === 'GET' && (UPDATES.test(req.url) || RPC_POLL.test(req.url));
const errorJson = (status: number, message: string): ProxyResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ status, message, errorCode: 10, timestamp: Date.now() })),
});

/** A timeout a lax server reads as a number although it is no Java long (1e308, 1e3, 2^63). */
function laxNumber(text: string): boolean {
  const n = Number(text);
  return Number.isFinite(n) && (String(n) !== text || !Number.isSafeInteger(n));
}

export function fidelityFaults(): Fault[] {
  return [
    {
      name: "a deleted device's open poll answered 401 (its token checked again)",
      caught: ['4.6.6', '5.6.4'],
      strict: true,
      response: (req, res) => (isPoll(req) && res.status === 403 ? errorJson(401, 'The device was deleted') : res),
    },
    {
      name: 'key lists trimmed around their commas',
      caught: ['3.6.10'],
      strict: true,
      request(req) {
        if (req.method !== 'GET' || !ATTRIBUTES.test(req.url)) return req;
        const q = queryOf(req);
        for (const name of ['clientKeys', 'sharedKeys']) {
          const values = q.getAll(name);
          q.delete(name);
          for (const value of values) q.append(name, value.split(',').map((k) => k.trim()).filter(Boolean).join(','));
        }
        return { ...req, url: `${pathOf(req)}?${q}` };
      },
    },
    {
      name: 'the token checked before the request is bound (401 for a missing body or timeout=xyz)',
      caught: ['1.3.4', '4.3.3'],
      strict: true,
      request: (req) => (ANY_DEVICE.exec(req.url)?.[1].startsWith(UNKNOWN) ? errorJson(401, 'Invalid access token') : req),
    },
    {
      name: 'a poll timeout that is no Java long clamped instead of refused',
      caught: ['4.2.2', '5.2.2'],
      strict: true,
      request(req) {
        const q = queryOf(req);
        const timeout = q.get('timeout');
        if (!isPoll(req) || timeout === null || !laxNumber(timeout)) return req;
        q.set('timeout', String(CLAMPED_MS));
        return { ...req, url: `${pathOf(req)}?${q}` };
      },
    },
    {
      name: 'RPC params re-serialised on their way to the device (1.0 as 1)',
      caught: ['5.6.5'],
      strict: true,
      response(req, res) {
        if (req.method !== 'GET' || !RPC_POLL.test(req.url) || res.status !== 200) return res;
        return { ...res, body: Buffer.from(JSON.stringify(JSON.parse(res.body.toString('utf8')))) };
      },
    },
  ];
}
