// The HTTP calls of ThingsBoard's generated Java client (thingsboard-java-client 4.4, ce/, the one
// ThingsBoard's application/src/test/java/org/thingsboard/server/client/*ApiClientTest.java drive),
// reproduced request for request: the same method, path and query parameters (a null parameter is
// left out), `Authorization: Bearer <jwt>` or `ApiKey <value>` (ThingsboardClient.AuthManager), JSON
// bodies as its ObjectMapper writes them (NON_NULL: unset fields absent), the raw-string bodies of
// the telemetry and RPC calls as text/plain, and a non-2xx answer thrown as ApiException(code).
// Maven Central is not reachable here, so the Java client itself cannot run; every response still
// goes through the contract check (helpers.ts).
import { FormData, request } from 'undici';
import { call, checked, type Response } from './helpers.js';
import type { Method } from './contract-responses.js';

export class ApiException extends Error {
  constructor(readonly code: number, readonly body: string) {
    super(`ApiException ${code}: ${body}`);
  }
}

type Query = Record<string, string | number | boolean | null | undefined>;

/** A JSON object as the client's ObjectMapper writes it (NON_NULL: null and unset fields absent). */
const nonNull = (value: object) => JSON.parse(JSON.stringify(value, (_k, v: unknown) => (v === null ? undefined : v))) as object;

export interface JavaClient {
  /** The JWT the client holds (ThingsboardClient.getToken). */
  token(): string | undefined;
  setToken(jwt: string): void;
  login(username: string, password: string): Promise<void>;
  get(path: string, query?: Query): Promise<unknown>;
  delete(path: string, query?: Query): Promise<unknown>;
  post(path: string, body?: object, query?: Query): Promise<unknown>;
  put(path: string, body?: object, query?: Query): Promise<unknown>;
  /** The raw-string calls (saveEntityTelemetry, RPC, saveEntityAttributesV2): the body as text/plain. */
  postText(path: string, text: string): Promise<unknown>;
  /** saveOtaPackageData: multipart `file`. */
  postFile(path: string, file: Buffer, fileName: string, query?: Query): Promise<unknown>;
  /** The bytes of a download (downloadOtaPackage). */
  download(path: string): Promise<Buffer>;
}

/** ThingsboardClient.builder().url(base)[.apiKey(key)].build() */
export function javaClient(base: string, apiKey?: string): JavaClient {
  let jwt: string | undefined;
  const auth = (): Record<string, string> => {
    const value = apiKey ? `ApiKey ${apiKey}` : jwt ? `Bearer ${jwt}` : undefined;
    return value ? { authorization: value } : {};
  };
  const url = (path: string, query: Query = {}) => {
    const pairs = Object.entries(query).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
    return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
  };
  const answer = (res: Response): unknown => {
    if (res.status < 200 || res.status > 299) throw new ApiException(res.status, res.text);
    if (res.text === '') return undefined;
    return String(res.headers['content-type']).startsWith('application/json') ? res.json() : res.text;
  };
  const send = async (method: Method, path: string, body?: string, headers: Record<string, string> = {}) =>
    answer(await call(base, method, path, body, { accept: 'application/json', ...auth(), ...headers }));
  const json = (body?: object) => (body === undefined ? undefined : JSON.stringify(nonNull(body)));

  const client: JavaClient = {
    token: () => jwt,
    setToken(token) {
      jwt = token;
    },
    async login(username, password) {
      const pair = await send('POST', '/api/auth/login', json({ username, password }), { 'content-type': 'application/json' }) as { token: string };
      jwt = pair.token;
    },
    get: (path, query) => send('GET', url(path, query)),
    delete: (path, query) => send('DELETE', url(path, query)),
    post: (path, body, query) => send('POST', url(path, query), json(body), { 'content-type': 'application/json' }),
    put: (path, body, query) => send('PUT', url(path, query), json(body), { 'content-type': 'application/json' }),
    postText: (path, text) => send('POST', path, text, { 'content-type': 'text/plain' }),
    async postFile(path, file, fileName, query) {
      const form = new FormData();
      form.append('file', new Blob([file], { type: 'application/octet-stream' }), fileName);
      const target = url(path, query);
      return answer(await checked('POST', target, await request(base + target, { method: 'POST', body: form, headers: auth() })));
    },
    async download(path) {
      const res = await checked('GET', path, await request(base + path, { headers: auth() }));
      if (res.status !== 200) throw new ApiException(res.status, res.text);
      return res.bytes;
    },
  };
  return client;
}

/** AbstractApiClientTest.assertReturns404 */
export async function expect404(operation: () => Promise<unknown>): Promise<void> {
  try {
    await operation();
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return;
    throw new Error(`Expected ApiException with 404 status code but got ${String(error)}`);
  }
  throw new Error('Expected ApiException with 404 status code');
}

export type Id = { entityType: string; id: string };
export type Entity = { id: Id } & Record<string, unknown>;
export type Page<T = Entity> = { data: T[]; totalPages: number; totalElements: number; hasNext: boolean };

export const TEST_PREFIX = 'ApiClientTestDevice_';
export const TEST_PREFIX_2 = 'ApiClientTestDevice2_';
export const TENANT_ADMIN_USERNAME = 'javaClientTenant@thingsboard.org';
const CUSTOMER_USERNAME = 'javaClientCustomer@thingsboard.org';
export const TEST_PASSWORD = 'password123';

/** AbstractApiClientTest.activateUser: the token from the activation link, then POST /api/noauth/activate. */
export async function activateUser(client: JavaClient, userId: Id, password: string, sendActivationMail: boolean): Promise<{ token: string }> {
  const activationLink = await client.get(`/api/user/${userId.id}/activationLink`) as string;
  const marker = '/api/noauth/activate?activateToken=';
  const activateToken = activationLink.substring(activationLink.lastIndexOf(marker) + marker.length);
  return await client.post('/api/noauth/activate', { activateToken, password }, { sendActivationMail }) as { token: string };
}

export interface ApiClientFixture {
  client: JavaClient;
  clientTenantAdmin: Entity;
  savedClientCustomer: Entity;
  /** ThingsBoard's savedClientTenant.getId(): dhi's one tenant. */
  tenantId: Id;
}

/**
 * AbstractApiClientTest.setUpJavaClient from the tenant admin on: ThingsBoard's sysadmin creates a
 * tenant; dhi has its one tenant, whose default admin the new admin removes, so that the tenant
 * holds what ThingsBoard's fresh one does (each test runs on a fresh server).
 */
export async function setUpJavaClient(base: string): Promise<ApiClientFixture> {
  const client = javaClient(base);
  await client.login('tenant@thingsboard.org', 'tenant');
  const defaultAdmin = await client.get('/api/auth/user') as Entity;
  const tenantId = defaultAdmin.tenantId as Id;
  const clientTenantAdmin = await client.post('/api/user', { authority: 'TENANT_ADMIN', tenantId, email: TENANT_ADMIN_USERNAME }, { sendActivationMail: 'false' }) as Entity;
  client.setToken((await activateUser(client, clientTenantAdmin.id, TEST_PASSWORD, false)).token);
  await client.delete(`/api/user/${defaultAdmin.id.id}`);
  const savedClientCustomer = await client.post('/api/customer', { title: 'Java client test customer', tenantId }) as Entity;
  const customerUser = await client.post('/api/user', {
    authority: 'CUSTOMER_USER', tenantId, customerId: savedClientCustomer.id, email: CUSTOMER_USERNAME,
  }, { sendActivationMail: 'false' }) as Entity;
  await activateUser(client, customerUser.id, TEST_PASSWORD, false);
  return { client, clientTenantAdmin, savedClientCustomer, tenantId };
}
