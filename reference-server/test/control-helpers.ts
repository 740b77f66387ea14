// Helpers for the control API tests: a logged-in client over real sockets, and waiting for polls.
import { expect, vi } from 'vitest';
import { FormData, request } from 'undici';
import { call, startTestServer, type Response, type TestServer } from './helpers.js';
import { loadContract, type Operation } from '../../spec/load.js';
import { compile, describeErrors, type Validator } from '../../spec/schema-validator.js';
import type { PollKind } from '../long-poll.js';

interface Documented {
  op: Operation;
  re: RegExp;
  validators: Map<string, Validator | undefined>;
}

const documented: Documented[] = (await loadContract()).operations.map((op) => ({
  op,
  re: new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`),
  validators: new Map(Object.entries(op.responses).map(([status, r]) => [
    status, r.contentType === 'application/json' && r.schema ? compile(r.schema) : undefined,
  ])),
}))
  // A literal segment wins over a parameter, as in the router: /deviceProfile/names before /deviceProfile/{id}.
  .sort((a, b) => a.op.path.split('{').length - b.op.path.split('{').length);

/** Every control response the tests see must be documented: its status, and its JSON body's schema. */
function checkAgainstContract(method: Method, path: string, res: Response): void {
  const url = path.split('?')[0];
  const entry = documented.find((d) => d.op.method === method.toLowerCase() && d.re.test(url));
  expect.soft(entry, `${method} ${url} is in the contract`).toBeDefined();
  if (!entry) return;
  const where = `${entry.op.operationId} ${res.status}`;
  expect.soft(entry.validators.has(String(res.status)), `${where} is documented`).toBe(true);
  // The content type: the declared one for a body, none declared for an empty one (a persistent
  // one-way RPC's {rpcId} is the one JSON body OpenAPI cannot declare next to an empty one).
  const declared = entry.op.responses[String(res.status)]?.contentType;
  const sent = String(res.headers['content-type'] ?? '').split(';')[0];
  if (res.text === '') expect.soft(declared, `${where} declares no body for an empty one`).toBeUndefined();
  else if (declared) expect.soft(sent, `${where} content type`).toBe(declared);
  const validate = entry.validators.get(String(res.status));
  if (validate && res.text !== '') {
    const ok = validate(JSON.parse(res.text));
    expect.soft(ok ? [] : describeErrors(validate.errors), `${where} body matches the contract`).toEqual([]);
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Api = (method: Method, path: string, body?: string | object) => Promise<Response>;

export async function loginAs(server: TestServer, username = 'tenant@thingsboard.org', password = 'tenant'): Promise<string> {
  const res = await call(server.httpUrl, 'POST', '/api/auth/login', { username, password });
  expect(res.status).toBe(200);
  return (res.json() as { token: string }).token;
}

/** Control API calls carrying `X-Authorization: Bearer <jwt>`. */
export function client(server: TestServer, jwt: string): Api {
  return async (method, path, body) => {
    const res = await call(server.httpUrl, method, path, body, { 'x-authorization': `Bearer ${jwt}` });
    checkAgainstContract(method, path, res);
    return res;
  };
}

/** A well-formed uuid that names nothing. */
export const UNKNOWN_ID = '6a1bd9b0-0000-4000-8000-000000000000';

/** A server of its own for a test file, and the tenant admin's client for it. */
export async function startAdminServer(): Promise<{ server: TestServer; api: Api }> {
  const server = await startTestServer();
  return { server, api: await adminApi(server) };
}

export async function adminApi(server: TestServer): Promise<Api> {
  return client(server, await loginAs(server));
}

/** Waits until `n` polls of this kind are open (a poll must be parked before an event can reach it). */
export function openPolls(server: TestServer, kind: PollKind, n: number): Promise<void> {
  return vi.waitFor(() => expect(server.ctx.polls.size()[kind]).toBe(n), { timeout: 5000, interval: 5 });
}

export interface DeviceRef {
  id: string;
  name: string;
  token: string;
}

let counter = 0;

/** A device created through the control API, with its token. */
export async function newDeviceVia(api: Api, fields: object = {}): Promise<DeviceRef> {
  counter++;
  const name = `CTL${String(counter).padStart(6, '0')}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const res = await api('POST', '/api/device', { name, type: 'default', ...fields });
  expect(res.status).toBe(200);
  const id = (res.json() as { id: { id: string } }).id.id;
  const credentials = await api('GET', `/api/device/${id}/credentials`);
  return { id, name, token: (credentials.json() as { credentialsId: string }).credentialsId };
}

/** multipart/form-data upload of one `file` part, after the given form fields. */
export async function upload(server: TestServer, jwt: string, path: string, bytes: Buffer, fileName = 'fw.bin', contentType = 'application/octet-stream', fields: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: contentType }), fileName);
  const res = await request(server.httpUrl + path, { method: 'POST', body: form, headers: { 'x-authorization': `Bearer ${jwt}` } });
  const text = await res.body.text();
  const response = { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
  checkAgainstContract('POST', path, response);
  return response;
}
