// Helpers for the control API tests: a logged-in client over real sockets, and waiting for polls.
import { expect, vi } from 'vitest';
import { FormData, request } from 'undici';
import { call, checked, startTestServer, type Response, type TestServer } from './helpers.js';
import { operationOf, type Method } from './contract-responses.js';
import type { PollKind } from '../long-poll.js';

export type { Method } from './contract-responses.js';
export type Api = (method: Method, path: string, body?: string | object) => Promise<Response>;

export async function loginAs(server: TestServer, username = 'tenant@thingsboard.org', password = 'tenant'): Promise<string> {
  const res = await call(server.httpUrl, 'POST', '/api/auth/login', { username, password });
  expect(res.status).toBe(200);
  return (res.json() as { token: string }).token;
}

/** Control API calls carrying `X-Authorization: Bearer <jwt>`; each is an operation of the document. */
export function client(server: TestServer, jwt: string): Api {
  return async (method, path, body) => {
    expect.soft(operationOf(method, path), `${method} ${path.split('?')[0]} is in the contract`).toBeDefined();
    return call(server.httpUrl, method, path, body, { 'x-authorization': `Bearer ${jwt}` });
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
  return checked('POST', path, await request(server.httpUrl + path, { method: 'POST', body: form, headers: { 'x-authorization': `Bearer ${jwt}` } }));
}

/** A user created through the API and activated by its link with this password, as ThingsBoard's API-client tests do. */
export async function activatedUser(server: TestServer, api: Api, fields: object, password: string): Promise<{ id: string; token: string; refreshToken: string }> {
  const created = await api('POST', '/api/user?sendActivationMail=false', fields);
  expect(created.status, created.text).toBe(200);
  const id = (created.json() as { id: { id: string } }).id.id;
  const link = (await api('GET', `/api/user/${id}/activationLink`)).text;
  const activateToken = new URL(link).searchParams.get('activateToken');
  const activated = await call(server.httpUrl, 'POST', '/api/noauth/activate?sendActivationMail=false', { activateToken, password });
  expect(activated.status, activated.text).toBe(200);
  return { id, ...(activated.json() as { token: string; refreshToken: string }) };
}
