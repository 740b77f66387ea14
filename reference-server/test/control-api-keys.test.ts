// API keys (ThingsBoard's ApiKeyController) over real sockets: the value answered once, the key
// authenticating in either header, disabled, expired and deleted keys refused, descriptions, pages,
// who may keep which keys; and the JWTs in ThingsBoard's format (HS512, its claims).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { client, loginAs, startAdminServer, UNKNOWN_ID, type Api } from './control-helpers.js';
import { NULL_UUID, TENANT_ID } from '../control-api/entities.js';

type Key = { id: { entityType: string; id: string }; value: string | null; enabled: boolean; description: string; expired: boolean; expirationTime: number };

let server: TestServer;
let api: Api;
let adminId: string;

beforeAll(async () => {
  ({ server, api } = await startAdminServer());
  adminId = server.ctx.store.userByEmail('tenant@thingsboard.org')!.id;
});
afterAll(() => stopTestServer(server));

async function newKey(fields: object = {}): Promise<Key> {
  const res = await api('POST', '/api/apiKey', { description: 'test key', userId: { entityType: 'USER', id: adminId }, enabled: true, ...fields });
  expect(res.status, res.text).toBe(200);
  return res.json() as Key;
}

/** GET /api/auth/user with this Authorization-style header. */
const whoAmI = (headers: Record<string, string>) => call(server.httpUrl, 'GET', '/api/auth/user', undefined, headers);

describe('API keys', () => {
  it('answers the value once; the key then authenticates in X-Authorization or Authorization as its user', async () => {
    const key = await newKey();
    expect(key).toMatchObject({ id: { entityType: 'API_KEY' }, description: 'test key', enabled: true, expired: false, expirationTime: 0, userId: { entityType: 'USER', id: adminId }, tenantId: { entityType: 'TENANT', id: TENANT_ID } });
    expect(key.value).toMatch(/^[A-Za-z0-9_-]{86}$/);
    for (const header of ['x-authorization', 'authorization']) {
      const res = await whoAmI({ [header]: `ApiKey ${key.value}` });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ email: 'tenant@thingsboard.org' });
    }
    const listed = (await api('GET', `/api/apiKeys/${adminId}?pageSize=100&page=0`)).json() as { data: object[] };
    const mine = listed.data.find((k) => (k as Key).id.id === key.id.id);
    expect(mine).toMatchObject({ description: 'test key', enabled: true });
    expect(mine).not.toHaveProperty('value');
    expect(server.ctx.store.apiKeyById(key.id.id)?.valueHash).not.toContain(key.value);
  });

  it('refuses an unknown, disabled, expired or deleted key with ThingsBoard\'s 401s', async () => {
    expect((await whoAmI({ 'x-authorization': 'ApiKey nothing-like-it' })).json()).toMatchObject({ status: 401, errorCode: 10, message: 'Invalid username or password' });
    const key = await newKey();
    const disabled = await api('PUT', `/api/apiKey/${key.id.id}/enabled/false`);
    expect(disabled.json()).toMatchObject({ enabled: false });
    expect((await whoAmI({ 'x-authorization': `ApiKey ${key.value}` })).json()).toMatchObject({ status: 401, errorCode: 10, message: 'User account is not active' });
    expect((await api('PUT', `/api/apiKey/${key.id.id}/enabled/true`)).json()).toMatchObject({ enabled: true });
    expect((await whoAmI({ 'x-authorization': `ApiKey ${key.value}` })).status).toBe(200);

    const expired = await newKey({ expirationTime: Date.now() - 1000 });
    expect(expired.expired).toBe(true);
    expect((await whoAmI({ authorization: `ApiKey ${expired.value}` })).json()).toMatchObject({ status: 401, errorCode: 10, message: 'API key is expired' });

    expect((await api('DELETE', `/api/apiKey/${key.id.id}`)).status).toBe(200);
    expect((await whoAmI({ 'x-authorization': `ApiKey ${key.value}` })).status).toBe(401);
    expect((await api('DELETE', `/api/apiKey/${key.id.id}`)).json()).toMatchObject({ status: 404, message: `Api key with id [${key.id.id}] is not found` });
  });

  it('changes a description sent as text, keeps the value and expiry on a save, and refuses a blank description', async () => {
    const key = await newKey({ description: 'first' });
    const described = await call(server.httpUrl, 'PUT', `/api/apiKey/${key.id.id}/description`, 'Production gateway', {
      'x-authorization': `Bearer ${await loginAs(server)}`, 'content-type': 'application/json',
    });
    expect(described.status).toBe(200);
    expect(described.json()).toMatchObject({ description: 'Production gateway' });
    expect((await api('PUT', `/api/apiKey/${key.id.id}/description`)).json()).toMatchObject({ status: 400, message: 'Validation error: description must not be blank' });

    const { value: _value, ...info } = key;
    const saved = await api('POST', '/api/apiKey', { ...info, description: 'renamed', enabled: false });
    expect(saved.json()).toMatchObject({ id: key.id, description: 'renamed', enabled: false, value: null });
    expect((await api('POST', '/api/apiKey', { ...info, expirationTime: 5 })).json()).toMatchObject({ status: 400, message: 'Cannot update API key expiration time!' });
    expect((await api('POST', '/api/apiKey', { description: ' ', userId: { id: adminId } })).status).toBe(400);
    expect((await api('POST', '/api/apiKey', { description: 'x', userId: { id: UNKNOWN_ID } })).json()).toMatchObject({ message: 'API key reference a non-existent user!' });
  });

  it('pages a user\'s keys, searched by description, sorted by ThingsBoard\'s properties', async () => {
    const user = (await api('POST', '/api/user?sendActivationMail=false', { email: 'keys-paging@example.com', authority: 'TENANT_ADMIN' })).json() as { id: { id: string } };
    for (const description of ['alpha', 'beta', 'Gamma']) await newKey({ userId: { id: user.id.id }, description });
    const page = (await api('GET', `/api/apiKeys/${user.id.id}?pageSize=2&page=0&sortProperty=description&sortOrder=DESC`)).json() as { data: Key[]; totalElements: number; hasNext: boolean };
    expect(page).toMatchObject({ totalElements: 3, hasNext: true, totalPages: 2 });
    expect(page.data.map((k) => k.description)).toEqual(['Gamma', 'beta']);
    const found = (await api('GET', `/api/apiKeys/${user.id.id}?pageSize=10&page=0&textSearch=GAM`)).json() as { data: Key[] };
    expect(found.data.map((k) => k.description)).toEqual(['Gamma']);
    expect((await api('GET', `/api/apiKeys/${user.id.id}?pageSize=10&page=0&sortProperty=value`)).status).toBe(400);
  });

  it('lets a customer user keep keys of its own only, and refuses keys of a user whose credentials are disabled', async () => {
    const customer = (await api('POST', '/api/customer', { title: 'keys-customer' })).json() as { id: { id: string } };
    const user = (await api('POST', '/api/user?sendActivationMail=false', { email: 'keys-cu@example.com', authority: 'CUSTOMER_USER', customerId: customer.id })).json() as { id: { id: string } };
    const asUser = client(server, ((await api('GET', `/api/user/${user.id.id}/token`)).json() as { token: string }).token);
    const own = await asUser('POST', '/api/apiKey', { description: 'mine', userId: { id: user.id.id }, enabled: true });
    expect(own.status).toBe(200);
    expect((await asUser('POST', '/api/apiKey', { description: 'theirs', userId: { id: adminId } })).status).toBe(403);
    expect((await asUser('GET', `/api/apiKeys/${adminId}?pageSize=10&page=0`)).status).toBe(403);
    const { value } = own.json() as Key;
    await api('POST', `/api/user/${user.id.id}/userCredentialsEnabled?userCredentialsEnabled=true`);
    expect((await whoAmI({ 'x-authorization': `ApiKey ${value}` })).json()).toMatchObject({ email: 'keys-cu@example.com' });
    await api('POST', `/api/user/${user.id.id}/userCredentialsEnabled?userCredentialsEnabled=false`);
    expect((await whoAmI({ 'x-authorization': `ApiKey ${value}` })).json()).toMatchObject({ status: 401, message: 'User account is not active' });
  });
});

describe('JWTs in ThingsBoard\'s format', () => {
  it('signs HS512 tokens with JwtTokenFactory\'s claims', async () => {
    const pair = (await call(server.httpUrl, 'POST', '/api/auth/login', { username: 'tenant@thingsboard.org', password: 'tenant' })).json() as { token: string; refreshToken: string };
    const part = (token: string, i: number) => JSON.parse(Buffer.from(token.split('.')[i], 'base64url').toString()) as Record<string, unknown>;
    expect(part(pair.token, 0)).toMatchObject({ alg: 'HS512' });
    const access = part(pair.token, 1);
    expect(access).toMatchObject({
      sub: 'tenant@thingsboard.org', userId: adminId, scopes: ['TENANT_ADMIN'], enabled: true, isPublic: false,
      tenantId: TENANT_ID, customerId: NULL_UUID, iss: 'dhi',
    });
    expect(access).toHaveProperty('sessionId');
    expect(access).toHaveProperty('firstName');
    expect(Number(access.exp) - Number(access.iat)).toBe(9000);
    const refresh = part(pair.refreshToken, 1);
    expect(refresh).toMatchObject({ sub: 'tenant@thingsboard.org', userId: adminId, scopes: ['REFRESH_TOKEN'], isPublic: false, sessionId: access.sessionId });
    expect(refresh.jti).toEqual(expect.any(String));
    expect(Number(refresh.exp) - Number(refresh.iat)).toBe(604_800);
  });
});
