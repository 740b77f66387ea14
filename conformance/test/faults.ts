// The faults the suite must catch, each with the case ids that must fail because of it.
import { blindSpotFaults } from './blind-spot-faults.js';
import { fidelityFaults } from './fidelity-faults.js';
import { isObject } from '../checks.js';
import { ATTRIBUTES, devicePath, FIRMWARE, jsonOf, queryOf, RPC_POLL, TELEMETRY, UPDATES, withJson } from './fault-kit.js';
import type { Fault, ProxyRequest, ProxyResponse } from './fault-proxy.js';

const RPC_REPLY = devicePath('rpc/\\d+');
const CLAIM = devicePath('claim');
const ANY_DEVICE = /^\/api\/v1\//;


function rewriteJson(req: ProxyRequest, edit: (body: unknown) => unknown): ProxyRequest {
  const body = jsonOf(req.body);
  return body === undefined ? req : { ...req, body: Buffer.from(JSON.stringify(edit(body))) };
}

/** Attribute polls held open, by token: fault 15 answers them with another device's update. */
function crossDeliveryFault(): Fault {
  const open = new Map<string, Set<(res: ProxyResponse) => void>>();
  return {
    name: "one device's update delivered to another device's poll",
    caught: ['4.3.2'],
    hold(req, answer) {
      const token = UPDATES.exec(req.url)?.[1];
      if (!token) return;
      if (!open.has(token)) open.set(token, new Set());
      open.get(token)!.add(answer);
    },
    response(req, res) {
      const token = UPDATES.exec(req.url)?.[1];
      if (token && res.status === 200) {
        for (const [other, answers] of open) if (other !== token) for (const a of answers) a(res);
      }
      if (token) open.get(token)?.clear();
      return res;
    },
  };
}

export function faults(): Fault[] {
  return [
    ...blindSpotFaults(),
    ...fidelityFaults(),
    {
      name: 'a bad token answered 200',
      caught: ['1.3.1', '2.3.1', '3.3.1', '4.3.1', '5.3.1', '6.3.1', '7.3.1', '8.3.2', '10.3.1', '1.3.2'],
      response: (req, res) => (ANY_DEVICE.test(req.url) && res.status === 401 ? { status: 200, headers: {}, body: Buffer.alloc(0) } : res),
    },
    {
      name: "form c's ts ignored",
      caught: ['1.1.4'],
      request: (req) => (TELEMETRY.test(req.url) ? rewriteJson(req, (b) => (isObject(b) && 'ts' in b && isObject(b.values) ? b.values : b)) : req),
    },
    {
      name: 'a requested missing attribute reported as null',
      caught: ['3.1.4'],
      response(req, res) {
        if (!ATTRIBUTES.test(req.url) || req.method !== 'GET' || res.status !== 200) return res;
        const body = (jsonOf(res.body) ?? {}) as Record<string, Record<string, unknown>>;
        const q = queryOf(req);
        for (const [param, group] of [['clientKeys', 'client'], ['sharedKeys', 'shared']]) {
          for (const key of q.getAll(param).flatMap((v) => v.split(','))) {
            body[group] ??= {};
            if (!(key in body[group])) body[group][key] = null;
          }
        }
        return withJson(res, body);
      },
    },
    {
      name: 'the shared group dropped',
      caught: ['3.1.2', '3.1.3', '3.1.5', '10.1.1'],
      response(req, res) {
        if (!ATTRIBUTES.test(req.url) || req.method !== 'GET' || res.status !== 200) return res;
        const body = jsonOf(res.body);
        if (isObject(body)) delete body.shared;
        return withJson(res, body);
      },
    },
    {
      name: 'a poll timeout answered 200 {}',
      caught: ['4.5.1', '5.5.1'],
      response: (req, res) => ((UPDATES.test(req.url) || RPC_POLL.test(req.url)) && req.method === 'GET' && res.status === 408 ? withJson(res, {}, 200) : res),
    },
    {
      name: 'a poll held 3 s past its timeout',
      caught: ['4.5.1', '5.5.1'],
      async response(req, res) {
        if ((UPDATES.test(req.url) || RPC_POLL.test(req.url)) && res.status === 408) await new Promise((r) => setTimeout(r, 3000));
        return res;
      },
    },
    {
      name: 'a poll answered 408 at once, without waiting',
      caught: ['4.1.1', '5.1.1', '10.1.2'],
      request: (req) => ((UPDATES.test(req.url) || RPC_POLL.test(req.url)) && req.method === 'GET' ? { status: 408, headers: {}, body: Buffer.alloc(0) } : req),
    },
    {
      name: 'an RPC reply that never reaches the REST caller',
      caught: ['6.1.1'],
      request: (req) => (RPC_REPLY.test(req.url) && req.method === 'POST' ? { status: 200, headers: {}, body: Buffer.alloc(0) } : req),
    },
    {
      name: 'an invalid body answered 500',
      caught: ['1.2.1', '1.2.2', '2.2.1', '7.2.1', '8.2.1', '9.2.2'],
      response: (req, res) => (ANY_DEVICE.test(req.url) && req.method === 'POST' && res.status === 400 ? { status: 500, headers: {}, body: Buffer.alloc(0) } : res),
    },
    {
      name: 'provisioning with a wrong secret answered SUCCESS',
      caught: ['9.3.1'],
      response(req, res) {
        const body = jsonOf(res.body);
        if (req.url !== '/api/v1/provision' || !isObject(body) || body.status !== 'NOT_FOUND') return res;
        return withJson(res, { credentialsValue: 'stolenToken123', credentialsType: 'ACCESS_TOKEN', status: 'SUCCESS' });
      },
    },
    {
      name: 'a firmware chunk off by one byte',
      caught: ['10.1.4'],
      async response(req, res, ctx) {
        const q = queryOf(req);
        const size = Number(q.get('size') ?? 0);
        if (!FIRMWARE.test(req.url) || res.status !== 200 || size <= 0) return res;
        q.set('size', '0');
        const whole = await ctx.upstream({ ...req, url: `${req.url.split('?')[0]}?${q}` });
        const start = Number(q.get('chunk') ?? 0) * size + 1;
        return { ...res, body: whole.body.subarray(start, start + size) };
      },
    },
    {
      name: 'durationMs of a claim ignored',
      caught: ['8.5.1'],
      request: (req) => (CLAIM.test(req.url) ? rewriteJson(req, (b) => (isObject(b) ? { ...b, durationMs: undefined } : b)) : req),
    },
    {
      name: 'updates wrapped in {"shared": ...}',
      caught: ['4.1.1', '10.1.2'],
      response: (req, res) => (UPDATES.test(req.url) && res.status === 200 ? withJson(res, { shared: jsonOf(res.body) }) : res),
    },
    {
      name: 'the RPC id changed between delivery and reply',
      caught: ['6.1.1'],
      response(req, res) {
        const body = jsonOf(res.body);
        return RPC_POLL.test(req.url) && req.method === 'GET' && res.status === 200 && isObject(body) ? withJson(res, { ...body, id: Number(body.id) + 1000 }) : res;
      },
    },
    {
      name: 'JSON answered with a non-JSON content type',
      caught: ['3.1.1', '4.1.1', '5.1.1', '7.1.1', '9.3.2'],
      response: (req, res) => (ANY_DEVICE.test(req.url) && (res.headers['content-type'] ?? '').includes('json') ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' } } : res),
    },
    crossDeliveryFault(),
    {
      name: 'values stored as strings (types lost)',
      caught: ['1.1.1', '2.1.1'],
      request: (req) =>
        (TELEMETRY.test(req.url) || ATTRIBUTES.test(req.url)) && req.method === 'POST'
          ? rewriteJson(req, (b) => (isObject(b) ? Object.fromEntries(Object.entries(b).map(([k, v]) => [k, typeof v === 'object' ? v : String(v)])) : b))
          : req,
    },
    {
      name: 'RPC params delivered as a JSON string',
      caught: ['5.1.1', '6.1.1'],
      response(req, res) {
        const body = jsonOf(res.body);
        return RPC_POLL.test(req.url) && req.method === 'GET' && res.status === 200 && isObject(body) ? withJson(res, { ...body, params: JSON.stringify(body.params) }) : res;
      },
    },
    {
      name: 'device-side RPC params not passed to the rule',
      caught: ['7.1.2'],
      request: (req) => (RPC_POLL.test(req.url) && req.method === 'POST' ? rewriteJson(req, (b) => (isObject(b) ? { ...b, params: {} } : b)) : req),
    },
    {
      name: 'doubles printed without their fraction (42.0 as 42)',
      caught: ['3.6.7', '3.6.9', '4.6.5'],
      strict: true,
      response: (req, res) => (ATTRIBUTES.test(req.url) || UPDATES.test(req.url)) && req.method === 'GET' && res.status === 200
        ? { ...res, body: Buffer.from(res.body.toString('utf8').replace(/(\d)\.0+(?=[,}\]])/g, '$1')) }
        : res,
    },
    {
      name: 'attribute reads passed through JavaScript numbers (big integers rounded)',
      caught: ['3.6.7', '3.6.8'],
      strict: true,
      response: (req, res) => (ATTRIBUTES.test(req.url) && req.method === 'GET' && res.status === 200 ? withJson(res, jsonOf(res.body)) : res),
    },
    {
      name: 'the RPC reply re-serialised on its way to the REST caller',
      caught: ['6.6.4'],
      strict: true,
      request: (req) => (RPC_REPLY.test(req.url) && req.method === 'POST' ? rewriteJson(req, (b) => b) : req),
    },
    {
      name: 'an unknown path answered 200',
      caught: ['1.4.1', '1.4.2', '1.4.3'],
      // 401 too outside /api/v1: a version the REST API's token check refuses before routing.
      response: (req, res) => ((res.status === 404 || (res.status === 401 && !req.url.startsWith('/api/v1/'))) && /^\/api\/v\d+\//.test(req.url) ? { status: 200, headers: {}, body: Buffer.alloc(0) } : res),
    },
  ];
}
