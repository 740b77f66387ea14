// Faults of issue 10's blind spots: servers that passed the suite before its cases were added.
// Several need what the server side did (tokens, server attributes, assignments): they watch the
// control API traffic that goes through the same proxy (the suite's control URL is the target).
import { randomBytes } from 'node:crypto';
import { isObject } from '../checks.js';
import { ATTRIBUTES, FIRMWARE, jsonOf, pathOf, queryOf, RPC_POLL, TELEMETRY, UPDATES, withJson } from './fault-kit.js';
import type { Fault, FaultContext, ProxyRequest, ProxyResponse } from './fault-proxy.js';

const RPC_REPLY = /^\/api\/v1\/([^/?]+)\/rpc\/(\d+)(\?|$)/;
const PROVISION = /^\/api\/v1\/provision(\?|$)/;
const CUSTOMER_CLAIM = /^\/api\/customer\/device\/([^/?]+)\/claim(\?|$)/;
const SERVER_ATTRIBUTES = /^\/api\/plugins\/telemetry\/DEVICE\/([^/?]+)\/attributes\/SERVER_SCOPE(\?|$)/;

type Json = Record<string, unknown>;
const EMPTY = Buffer.alloc(0);

const withQuery = (req: ProxyRequest, q: URLSearchParams): ProxyRequest => ({ ...req, url: `${pathOf(req)}?${q}` });
const isPoll = (req: ProxyRequest) => req.method === 'GET' && (UPDATES.test(req.url) || RPC_POLL.test(req.url));
const isRead = (req: ProxyRequest, res: ProxyResponse) => req.method === 'GET' && ATTRIBUTES.test(req.url) && res.status === 200;
const keysOf = (q: URLSearchParams, name: string) => q.getAll(name).flatMap((v) => v.split(',')).filter(Boolean);
/** Longer than any poll of the suite waits; longer sleeps would overflow Node's timer. */
const MAX_HOLD_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the control API did, learned from its requests and answers through the proxy. */
function controlObserver() {
  const idByToken = new Map<string, string>();
  const tokenByName = new Map<string, string>();
  const serverAttributes = new Map<string, Json>();
  const ownFirmware = new Set<string>();
  let jwt = '';
  return {
    idByToken,
    tokenByName,
    serverAttributes,
    ownFirmware,
    jwt: () => jwt,
    observe(req: ProxyRequest, res: ProxyResponse): void {
      if (req.method !== 'POST' || res.status !== 200) return;
      const body = jsonOf(req.body);
      if (pathOf(req) === '/api/device' && isObject(body)) {
        jwt = req.headers['x-authorization'] ?? jwt;
        const saved = jsonOf(res.body);
        const token = queryOf(req).get('accessToken');
        const id = isObject(saved) && isObject(saved.id) ? String(saved.id.id) : undefined;
        if (token && id) {
          idByToken.set(token, id);
          tokenByName.set(String(body.name), token);
        }
        if (id && isObject(body.firmwareId)) ownFirmware.add(id);
      }
      const server = SERVER_ATTRIBUTES.exec(pathOf(req));
      if (server && isObject(body)) serverAttributes.set(server[1], { ...serverAttributes.get(server[1]), ...body });
    },
  };
}

function mapRead(edit: (body: Json, req: ProxyRequest) => Json): Fault['response'] {
  return (req, res) => {
    const body = jsonOf(res.body);
    return isRead(req, res) && isObject(body) ? withJson(res, edit(body, req)) : res;
  };
}

function serverAttributesShown(): Fault {
  const control = controlObserver();
  return {
    name: 'server-scope attributes shown to the device',
    caught: ['3.1.7'],
    response(req, res) {
      control.observe(req, res);
      const token = ATTRIBUTES.exec(req.url)?.[1];
      const server = control.serverAttributes.get(control.idByToken.get(token ?? '') ?? '') ?? {};
      const body = jsonOf(res.body);
      if (!isRead(req, res) || !isObject(body)) return res;
      const q = queryOf(req);
      const asked = [...keysOf(q, 'clientKeys'), ...keysOf(q, 'sharedKeys')];
      const shown = Object.fromEntries(Object.entries(server).filter(([k]) => asked.length === 0 || asked.includes(k)));
      return withJson(res, { ...body, shared: { ...(body.shared as Json), ...shown } });
    },
  };
}

/** Every command id 0; a reply to any id answers the last command delivered to the device. */
function idsZeroRepliesToLast(): Fault {
  const last = new Map<string, string>();
  return {
    name: 'every command id 0, every reply routed to the last command',
    caught: ['6.1.2', '6.1.3', '6.1.4'],
    request(req) {
      const reply = RPC_REPLY.exec(req.url);
      if (!reply || req.method !== 'POST' || !last.has(reply[1])) return req;
      return { ...req, url: req.url.replace(`/rpc/${reply[2]}`, `/rpc/${last.get(reply[1])}`) };
    },
    response(req, res) {
      const token = RPC_POLL.exec(req.url)?.[1];
      const body = jsonOf(res.body);
      if (!token || req.method !== 'GET' || res.status !== 200 || !isObject(body)) return res;
      last.set(token, String(body.id));
      return withJson(res, { ...body, id: 0 });
    },
  };
}

function deliveredToEveryPoll(): Fault {
  const open = new Map<string, Set<(res: ProxyResponse) => void>>();
  return {
    name: 'one command delivered to every open poll of the device',
    caught: ['5.1.3'],
    hold(req, answer) {
      const token = RPC_POLL.exec(req.url)?.[1];
      if (!token || req.method !== 'GET') return;
      if (!open.has(token)) open.set(token, new Set());
      open.get(token)!.add(answer);
    },
    response(req, res) {
      const token = RPC_POLL.exec(req.url)?.[1];
      if (token && req.method === 'GET' && res.status === 200) {
        for (const answer of open.get(token) ?? []) answer(res);
        open.delete(token);
      }
      return res;
    },
  };
}

function deliveredAgain(): Fault {
  const again = new Map<string, ProxyResponse>();
  return {
    name: 'a delivered one-way command sent again on the next poll',
    caught: ['5.1.4'],
    request(req) {
      const token = RPC_POLL.exec(req.url)?.[1];
      const repeat = token && req.method === 'GET' ? again.get(token) : undefined;
      if (!repeat) return req;
      again.delete(token!);
      return repeat;
    },
    response(req, res) {
      const token = RPC_POLL.exec(req.url)?.[1];
      if (token && req.method === 'GET' && res.status === 200) again.set(token, res);
      return res;
    },
  };
}

function profilePackageIgnored(): Fault {
  const control = controlObserver();
  return {
    name: "the profile's firmware not served to a device without its own",
    caught: ['10.6.6'],
    strict: true,
    response(req, res) {
      control.observe(req, res);
      const token = FIRMWARE.exec(req.url)?.[1];
      const id = control.idByToken.get(token ?? '');
      return token && id && res.status === 200 && !control.ownFirmware.has(id) ? { status: 404, headers: {}, body: EMPTY } : res;
    },
  };
}

/** The customer's claim goes through after the proxy opened a window with the same key. */
function claimWithoutWindow(): Fault {
  const control = controlObserver();
  return {
    name: 'a device claimed that never opened a claim window',
    caught: ['8.3.3'],
    async request(req, ctx: FaultContext) {
      const name = CUSTOMER_CLAIM.exec(req.url)?.[1];
      const token = name && control.tokenByName.get(decodeURIComponent(name));
      const body = jsonOf(req.body);
      if (token && isObject(body)) {
        await ctx.upstream({ method: 'POST', url: `/api/v1/${token}/claim`, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ secretKey: body.secretKey ?? '' })) });
      }
      return req;
    },
    response: (req, res) => (control.observe(req, res), res),
  };
}

function refusedProvisioningCreates(): Fault {
  const control = controlObserver();
  return {
    name: 'refused provisioning still creates the device',
    caught: ['9.3.1'],
    async response(req, res, ctx) {
      control.observe(req, res);
      const outcome = jsonOf(res.body);
      const asked = jsonOf(req.body);
      if (!PROVISION.test(req.url) || !isObject(outcome) || outcome.status !== 'NOT_FOUND' || !isObject(asked) || typeof asked.deviceName !== 'string') return res;
      const token = randomBytes(10).toString('hex');
      const create = { method: 'POST', url: `/api/device?accessToken=${token}`, headers: { 'content-type': 'application/json', 'x-authorization': control.jwt() }, body: Buffer.from(JSON.stringify({ name: asked.deviceName, type: 'default' })) };
      await ctx.upstream(create);
      return res;
    },
  };
}

/** Telemetry answered at once, stored later, and for the sibling device (-d0/-d1) too. */
function lateWriteToSibling(): Fault {
  const control = controlObserver();
  return {
    name: 'telemetry stored late, and for the other device of the case too',
    caught: ['1.3.3'],
    request(req, ctx) {
      const token = TELEMETRY.exec(req.url)?.[1];
      if (!token || req.method !== 'POST') return req;
      const name = [...control.tokenByName].find(([, t]) => t === token)?.[0] ?? '';
      const sibling = control.tokenByName.get(name.replace(/-d(\d+)$/, (_, n: string) => `-d${n === '0' ? 1 : 0}`));
      void sleep(300).then(() => Promise.all([token, ...(sibling ? [sibling] : [])].map((t) => ctx.upstream({ ...req, url: req.url.replace(token, t) })))).catch(() => undefined);
      return { status: 200, headers: {}, body: EMPTY };
    },
    response: (req, res) => (control.observe(req, res), res),
  };
}

export function blindSpotFaults(): Fault[] {
  return [
    {
      name: 'clientKeys and sharedKeys ignored (every attribute returned)',
      caught: ['3.1.6'],
      request: (req) => (req.method === 'GET' && ATTRIBUTES.test(req.url) ? { ...req, url: pathOf(req) } : req),
    },
    {
      name: 'an attribute read adds a key nobody asked for',
      caught: ['3.1.6'],
      response: mapRead((body) => ({ ...body, client: { ...(body.client as Json), unasked: 'extra' } })),
    },
    serverAttributesShown(),
    {
      name: 'a client and a shared attribute of one key merged',
      caught: ['3.1.8'],
      response: mapRead((body) => {
        const client = { ...(body.client as Json) };
        const shared = (body.shared ?? {}) as Json;
        for (const key of Object.keys(client)) if (key in shared) client[key] = shared[key];
        return { ...body, client };
      }),
    },
    {
      name: 'every poll answered 408 after 200 ms whatever its timeout',
      caught: ['4.5.2', '5.5.2'],
      request(req) {
        if (!isPoll(req)) return req;
        const q = queryOf(req);
        q.set('timeout', '200');
        return withQuery(req, q);
      },
    },
    {
      name: 'a poll timeout (408) answered with a body',
      caught: ['4.5.2', '5.5.2'],
      response: (req, res) => (isPoll(req) && res.status === 408 ? withJson(res, { status: 408, message: 'no update' }) : res),
    },
    {
      name: 'an update carries the whole shared state, not the changed keys',
      caught: ['4.1.2'],
      async response(req, res, ctx) {
        const token = UPDATES.exec(req.url)?.[1];
        const update = jsonOf(res.body);
        if (!token || res.status !== 200 || !isObject(update) || 'deleted' in update) return res;
        const all = jsonOf((await ctx.upstream({ method: 'GET', url: `/api/v1/${token}/attributes`, headers: {}, body: EMPTY })).body);
        return withJson(res, { ...(isObject(all) && isObject(all.shared) ? all.shared : {}), ...update });
      },
    },
    {
      name: 'a pending RPC held back until the poll times out',
      caught: ['5.1.2'],
      async request(req) {
        if (req.method !== 'GET' || !RPC_POLL.test(req.url)) return req;
        const q = queryOf(req);
        const timeout = Number(q.get('timeout') ?? 0);
        if (!(timeout <= MAX_HOLD_MS)) return req; // not a timeout a poll waits for (1e308, 2^63): the server refuses it
        await sleep(Math.max(0, timeout - 100));
        q.set('timeout', '100');
        return withQuery(req, q);
      },
    },
    deliveredToEveryPoll(),
    deliveredAgain(),
    idsZeroRepliesToLast(),
    {
      name: 'firmware served whatever title and version say',
      caught: ['10.1.5'],
      async request(req, ctx) {
        const token = FIRMWARE.exec(req.url)?.[1];
        if (!token || req.method !== 'GET') return req;
        const read = jsonOf((await ctx.upstream({ method: 'GET', url: `/api/v1/${token}/attributes?sharedKeys=fw_title,fw_version`, headers: {}, body: EMPTY })).body);
        const shared = isObject(read) && isObject(read.shared) ? read.shared : {};
        const q = queryOf(req);
        if (typeof shared.fw_title === 'string') q.set('title', shared.fw_title);
        if (typeof shared.fw_version === 'string') q.set('version', shared.fw_version);
        return withQuery(req, q);
      },
    },
    {
      name: 'fw_size not the size of the package',
      caught: ['10.6.5'],
      strict: true,
      response: mapRead((body) => (isObject(body.shared) && typeof body.shared.fw_size === 'number' ? { ...body, shared: { ...body.shared, fw_size: body.shared.fw_size + 1 } } : body)),
    },
    profilePackageIgnored(),
    {
      name: 'a claim answered SUCCESS without changing the owner',
      caught: ['8.1.3'],
      request: (req) => (req.method === 'POST' && CUSTOMER_CLAIM.test(req.url) ? { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"device":{},"response":"SUCCESS"}') } : req),
    },
    claimWithoutWindow(),
    refusedProvisioningCreates(),
    {
      name: 'refused provisioning answered 401',
      caught: ['9.3.3'],
      response(req, res) {
        const outcome = jsonOf(res.body);
        return PROVISION.test(req.url) && isObject(outcome) && outcome.status !== 'SUCCESS' ? { status: 401, headers: {}, body: EMPTY } : res;
      },
    },
    lateWriteToSibling(),
    {
      name: 'a 405 whose Allow header lists the methods in lower case',
      caught: ['1.4.4', '2.4.1', '3.4.1', '4.4.1', '5.4.1', '6.4.1', '7.4.1', '8.4.1', '9.4.1', '10.4.1'],
      strict: true,
      response: (_req, res) => (res.status === 405 ? { ...res, headers: { ...res.headers, allow: (res.headers.allow ?? '').toLowerCase() } } : res),
    },
    {
      name: 'a body of more than 1,000 arrays side by side refused as too deep',
      caught: ['2.1.4'],
      request: (req) => (req.method === 'POST' && ATTRIBUTES.test(req.url) && req.body.toString('utf8').split('[').length > 1001 ? { status: 400, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"status":400,"message":"too deep"}') } : req),
    },
  ];
}
