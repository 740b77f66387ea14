// The control API client (ThingsBoard REST subset): log in, create and delete devices, write
// shared attributes, issue server-side RPC. The same calls drive dhi serve and a real ThingsBoard.
import { Pool } from 'undici';
import { tlsOptions } from './http.js';
import { fill, type ControlTemplates } from './routes.js';
import type { Body, Ok, Schema } from '../spec/types.js';

export interface ControlOptions {
  url: string;
  username: string;
  password: string;
  templates: ControlTemplates;
  /** Concurrent control requests (the driver's RPCs wait for device replies). */
  connections: number;
  requestTimeoutMs: number;
  insecure?: boolean;
}

export class ControlError extends Error {
  constructor(
    readonly operation: string,
    readonly status: number,
    body: string,
  ) {
    super(`control API ${operation} answered ${status}${body ? `: ${body.slice(0, 300)}` : ''}`);
    this.name = 'ControlError';
  }
}

export interface ControlReply {
  status: number;
  body: string;
}

export interface Control {
  login(): Promise<void>;
  /** The X-Authorization header's value of the current login (empty before the first). */
  authorization(): string;
  /** The control API's base URL and paths, for a client of its own (the driver's). */
  readonly url: string;
  readonly templates: ControlTemplates;
  /** Raw call; the JWT is attached and renewed once on 401. */
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, signal?: AbortSignal): Promise<ControlReply>;
  createDevice(name: string, accessToken?: string): Promise<{ id: string; token: string }>;
  findDevice(name: string): Promise<string | undefined>;
  /** The device's access token (its credentials). */
  token(deviceId: string): Promise<string>;
  deleteDevice(id: string): Promise<void>;
  setShared(deviceId: string, values: Body<'saveDeviceAttributes'>): Promise<ControlReply>;
  rpcTwoWay(deviceId: string, api: 'v1' | 'v2', request: Body<'sendRpcV1' | 'sendRpcV2'>): Promise<ControlReply>;
  close(): Promise<void>;
}

export function createControl(options: ControlOptions): Control {
  const url = new URL(options.url);
  const basePath = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url.origin, {
    connections: options.connections,
    headersTimeout: options.requestTimeoutMs,
    bodyTimeout: options.requestTimeoutMs,
    connectTimeout: 10_000,
    ...tlsOptions(options.insecure ?? false),
  });
  const t = options.templates;
  let headers: Record<string, string> = { 'content-type': 'application/json' };

  const raw = async (method: ControlReplyMethod, path: string, body?: unknown, signal?: AbortSignal): Promise<ControlReply> => {
    const response = await pool.request({
      method,
      path: basePath + path,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    return { status: response.statusCode, body: await response.body.text() };
  };

  const control: Control = {
    url: options.url,
    templates: t,
    authorization: () => headers['x-authorization'] ?? '',
    async login() {
      const reply = await raw('POST', t.login, { username: options.username, password: options.password } satisfies Body<'login'>);
      if (reply.status !== 200) throw new ControlError(`login as ${options.username}`, reply.status, reply.body);
      const token = (JSON.parse(reply.body) as Partial<Ok<'login'>>).token;
      if (!token) throw new ControlError('login', reply.status, 'no token in the answer');
      headers = { 'content-type': 'application/json', 'x-authorization': `Bearer ${token}` };
    },
    async call(method, path, body, signal) {
      let reply = await raw(method, path, body, signal);
      if (reply.status === 401) {
        await control.login();
        reply = await raw(method, path, body, signal);
      }
      return reply;
    },
    async createDevice(name, accessToken) {
      const query = accessToken ? `?accessToken=${encodeURIComponent(accessToken)}` : '';
      const reply = await control.call('POST', t.saveDevice + query, { name, type: 'default' } satisfies Body<'saveDevice'>);
      if (reply.status !== 200) throw new ControlError(`create device ${name}`, reply.status, reply.body);
      const id = (JSON.parse(reply.body) as Ok<'saveDevice'>).id.id;
      return { id, token: accessToken ?? (await control.token(id)) };
    },
    async token(deviceId) {
      const reply = await control.call('GET', fill(t.getDeviceCredentials, { deviceId }));
      if (reply.status !== 200) throw new ControlError(`credentials of ${deviceId}`, reply.status, reply.body);
      return (JSON.parse(reply.body) as Ok<'getDeviceCredentials'>).credentialsId;
    },
    async findDevice(name) {
      const reply = await control.call('GET', `${t.getTenantDevices}?deviceName=${encodeURIComponent(name)}`);
      if (reply.status === 404) return undefined;
      if (reply.status !== 200) throw new ControlError(`find device ${name}`, reply.status, reply.body);
      // With deviceName, getTenantDevices answers the one device (not a page).
      return (JSON.parse(reply.body) as Schema<'Device'>).id.id;
    },
    async deleteDevice(id) {
      const reply = await control.call('DELETE', fill(t.deleteDevice, { deviceId: id }));
      if (reply.status !== 200 && reply.status !== 404) throw new ControlError(`delete device ${id}`, reply.status, reply.body);
    },
    setShared(deviceId, values) {
      return control.call('POST', fill(t.saveDeviceAttributes, { entityType: 'DEVICE', entityId: deviceId, scope: 'SHARED_SCOPE' }), values);
    },
    rpcTwoWay(deviceId, api, request) {
      const template = api === 'v1' ? t.sendRpcV1 : t.sendRpcV2;
      return control.call('POST', fill(template, { deviceId }), request);
    },
    async close() {
      await pool.close();
    },
  };
  return control;
}

type ControlReplyMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Run `work` over `items` with at most `concurrency` in flight; results keep the input order. */
export async function mapConcurrent<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  });
  await Promise.all(runners);
  return results;
}
