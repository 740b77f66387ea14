import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_USER_NOT_MODELLED } from '../control-api/not-modelled.js';
import { loadContract, type Operation } from '../../spec/load.js';
import { validateConfig } from '../config.js';
import { createSqliteStore } from '../store/sqlite.js';
import { createLongPolls } from '../long-poll.js';
import { createRpcService } from '../rpc-service.js';
import { createAttributeService } from '../attribute-service.js';
import { createRuleEngine } from '../rule-engine.js';
import { deviceApiHandlers } from '../device-api/index.js';
import { createControlApi } from '../control-api/index.js';
import { createSigner } from 'fast-jwt';
import { call, startTestServer, stopTestServer, tempDir, type TestServer } from './helpers.js';
import { client, loginAs } from './control-helpers.js';
import type { ServerContext } from '../context.js';
import { createDeviceState } from '../device-state.js';

const JWT_SECRET = 'control-auth-test-secret';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jwtSecret: JWT_SECRET, adminPassword: 'sesame' });
});
afterAll(async () => {
  await stopTestServer(server);
});

describe('the contract and the handlers', () => {
  it('has a handler for every operation and an operation for every handler', async () => {
    const contract = await loadContract();
    const store = createSqliteStore(':memory:');
    const polls = createLongPolls();
    const deviceState = createDeviceState(store, validateConfig({}), () => undefined);
    const ctx: ServerContext = {
      config: validateConfig({ db: ':memory:' }), listening: {}, store, deviceState, polls, rpc: createRpcService(store, polls),
      attributes: createAttributeService(store, polls, deviceState), rules: createRuleEngine(store),
    };
    const handlers = { ...deviceApiHandlers(ctx), ...createControlApi(ctx).handlers };
    const operations = contract.operations.map((op) => op.operationId).sort();
    expect(Object.keys(handlers).sort()).toEqual(operations);
    await deviceState.close();
    await store.close();
  });
});

/** A concrete URL for an operation: valid-looking path values, so that only the token decides. */
function urlOf(op: Operation): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const schema = (op.pathParams.find((p) => p.name === name)?.schema ?? {}) as { format?: string; enum?: string[] };
    return schema.format === 'uuid' ? '6a1bd9b0-0000-4000-8000-000000000000' : (schema.enum?.[0] ?? 'x');
  });
}

/** Valid-looking values for the required query parameters, so that the permission check decides. */
function requiredQuery(op: Operation): string {
  const pairs = op.queryParams.filter((q) => q.required).map((q) => `${q.name}=${encodeURIComponent(valueFor(q.schema))}`);
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function valueFor(schema: unknown): string {
  const s = (schema ?? {}) as { type?: string; format?: string; enum?: string[]; $ref?: string };
  if (s.type === 'integer') return '0';
  return s.format === 'uuid' ? '6a1bd9b0-0000-4000-8000-000000000000' : (s.enum?.[0] ?? 'a');
}

describe('every secured operation', () => {
  it('answers 401 without a token, and 403 to a customer user where it is not claiming', async () => {
    const secured = (await loadContract()).operations.filter((op) => op.secured);
    expect(secured.length).toBeGreaterThan(30);
    for (const op of secured) {
      const res = await call(server.httpUrl, op.method.toUpperCase() as 'GET', urlOf(op), op.requestBody ? {} : undefined);
      expect.soft(res.status, op.operationId).toBe(401);
    }
    const admin = client(server, await loginAs(server, undefined, 'sesame'));
    const customerId = ((await admin('POST', '/api/customer', { title: 'Sweep' })).json() as { id: { id: string } }).id.id;
    const user = await admin('POST', '/api/user', { email: 'sweep@x.example', authority: 'CUSTOMER_USER', customerId: { entityType: 'CUSTOMER', id: customerId } });
    const asUser = client(server, ((await admin('GET', `/api/user/${(user.json() as { id: { id: string } }).id.id}/token`)).json() as { token: string }).token);
    // Operations without a body: the permission check is not preceded by body validation.
    // API keys: a customer user keeps its own (control-api-keys.test.ts).
    const ownCalls = ['claimDevice', 'reclaimDevice', 'getCurrentUser', 'logout', 'getSystemVersionInfo', 'getUserApiKeys', 'enableApiKey', 'deleteApiKey', ...OWN_USER_NOT_MODELLED];
    for (const op of secured.filter((o) => !o.requestBody && !ownCalls.includes(o.operationId))) {
      const res = await asUser(op.method.toUpperCase() as 'GET', `${urlOf(op)}${requiredQuery(op)}`);
      expect.soft(res.status, op.operationId).toBe(403);
    }
    // The calls about the user's own settings, dashboards and sessions are the customer user's too: not modelled.
    for (const op of secured.filter((o) => !o.requestBody && OWN_USER_NOT_MODELLED.includes(o.operationId))) {
      expect.soft((await asUser(op.method.toUpperCase() as 'GET', `${urlOf(op)}${requiredQuery(op)}`)).status, op.operationId).toBe(501);
    }
  });
});

describe('login', () => {
  it('answers a JWT pair for the default tenant admin with the configured password', async () => {
    const res = await call(server.httpUrl, 'POST', '/api/auth/login', { username: 'tenant@thingsboard.org', password: 'sesame' });
    expect(res.status).toBe(200);
    const pair = res.json() as { token: string; refreshToken: string };
    expect(pair.token.split('.')).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(pair.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: 'tenant@thingsboard.org', scopes: ['TENANT_ADMIN'] });
    expect(claims.exp - claims.iat).toBe(9000);
  });

  it('rejects a wrong password or an unknown user with 401 and errorCode 10', async () => {
    for (const body of [{ username: 'tenant@thingsboard.org', password: 'tenant' }, { username: 'nobody@x', password: 'sesame' }]) {
      const res = await call(server.httpUrl, 'POST', '/api/auth/login', body);
      expect(res.status).toBe(401);
      expect(res.json()).toMatchObject({ status: 401, message: 'Invalid username or password', errorCode: 10 });
    }
  });

  it('rejects a body without a password with 400', async () => {
    const res = await call(server.httpUrl, 'POST', '/api/auth/login', { username: 'tenant@thingsboard.org' });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, errorCode: 31 });
  });
});

describe('bearer tokens', () => {
  it('accepts the JWT in X-Authorization and in Authorization', async () => {
    const jwt = await loginAs(server, undefined, 'sesame');
    for (const header of ['x-authorization', 'authorization']) {
      const res = await call(server.httpUrl, 'GET', '/api/deviceProfiles?pageSize=10', undefined, { [header]: `Bearer ${jwt}` });
      expect(res.status).toBe(200);
    }
  });

  it('answers 401 errorCode 10 without a token, with a bad one or with a refresh token', async () => {
    const refresh = (
      (await call(server.httpUrl, 'POST', '/api/auth/login', { username: 'tenant@thingsboard.org', password: 'sesame' })).json() as { refreshToken: string }
    ).refreshToken;
    const forged = createSigner({ key: 'another secret', algorithm: 'HS512', expiresIn: 60_000 })({
      sub: 'tenant@thingsboard.org', scopes: ['TENANT_ADMIN'], userId: server.ctx.store.userByEmail('tenant@thingsboard.org')!.id, iss: 'dhi',
    });
    const cases: Record<string, string>[] = [
      {}, { 'x-authorization': 'Bearer garbage' }, { authorization: 'Basic abc' }, { 'x-authorization': `Bearer ${refresh}` },
      { 'x-authorization': `Bearer ${forged}` },
    ];
    for (const headers of cases) {
      const res = await call(server.httpUrl, 'GET', '/api/deviceProfiles?pageSize=10', undefined, headers);
      expect(res.status).toBe(401);
      expect(res.json()).toMatchObject({ status: 401, errorCode: 10 });
    }
  });

  it('answers 401 errorCode 11 for an expired token', async () => {
    const admin = server.ctx.store.userByEmail('tenant@thingsboard.org')!;
    const expired = createSigner({ key: JWT_SECRET, algorithm: 'HS512', clockTimestamp: 1_000_000, expiresIn: 1000 })({
      sub: admin.email, scopes: ['TENANT_ADMIN'], userId: admin.id, iss: 'dhi',
    });
    const res = await call(server.httpUrl, 'GET', '/api/deviceProfiles?pageSize=10', undefined, { 'x-authorization': `Bearer ${expired}` });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ status: 401, message: 'Token has expired', errorCode: 11 });
  });
});

describe('customers and customer users', () => {
  it('creates a customer and a customer user whose token is refused everything but claiming (403)', async () => {
    const admin = client(server, await loginAs(server, undefined, 'sesame'));
    const customer = await admin('POST', '/api/customer', { title: 'Acme', email: 'ops@acme.example' });
    expect(customer.status).toBe(200);
    const customerId = (customer.json() as { id: { id: string } }).id.id;
    expect(customer.json()).toMatchObject({ id: { entityType: 'CUSTOMER', id: customerId }, title: 'Acme', name: 'Acme' });
    expect((await admin('GET', `/api/customer/${customerId}`)).json()).toMatchObject({ title: 'Acme' });
    expect((await admin('POST', '/api/customer', { title: 'Acme' })).status).toBe(400);

    const user = await admin('POST', '/api/user?sendActivationMail=false', {
      email: 'user@acme.example', authority: 'CUSTOMER_USER', customerId: { entityType: 'CUSTOMER', id: customerId },
    });
    expect(user.status).toBe(200);
    const userId = (user.json() as { id: { id: string } }).id.id;
    expect(user.json()).toMatchObject({ authority: 'CUSTOMER_USER', customerId: { id: customerId } });
    expect((await admin('POST', '/api/user', { email: 'user@acme.example', authority: 'CUSTOMER_USER', customerId: { entityType: 'CUSTOMER', id: customerId } })).status).toBe(400);
    expect((await admin('POST', '/api/user', { email: 'lost@acme.example', authority: 'CUSTOMER_USER' })).status).toBe(400);

    const pair = await admin('GET', `/api/user/${userId}/token`);
    expect(pair.status).toBe(200);
    const asUser = client(server, (pair.json() as { token: string }).token);
    const denied = await asUser('GET', '/api/deviceProfiles?pageSize=10');
    expect(denied.status).toBe(403);
    expect(denied.json()).toMatchObject({ status: 403, errorCode: 20 });
    expect((await asUser('GET', `/api/user/${userId}/token`)).status).toBe(403);

    expect((await admin('DELETE', `/api/customer/${customerId}`)).status).toBe(200);
    expect((await admin('GET', `/api/customer/${customerId}`)).status).toBe(404);
    expect(server.ctx.store.userById(userId)).toBeUndefined();
    expect((await asUser('POST', '/api/customer/device/any/claim', {})).status).toBe(401);
  });

  it('answers 404 for unknown ids and 400 for malformed ones', async () => {
    const admin = client(server, await loginAs(server, undefined, 'sesame'));
    expect((await admin('GET', '/api/customer/6a1bd9b0-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await admin('DELETE', '/api/customer/6a1bd9b0-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await admin('GET', '/api/user/6a1bd9b0-0000-4000-8000-000000000000/token')).status).toBe(404);
    const malformed = await admin('GET', '/api/customer/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toMatchObject({ status: 400, errorCode: 31 });
  });
});

describe('the JWT secret and the admin password', () => {
  it('keeps a generated secret in the store, so tokens survive a restart; the configured password wins', async () => {
    const dir = tempDir();
    const first = await startTestServer({}, dir);
    const jwt = await loginAs(first);
    await stopTestServer(first, false);
    const second = await startTestServer({ adminPassword: 'changed' }, dir);
    try {
      expect((await client(second, jwt)('GET', '/api/deviceProfiles?pageSize=1')).status).toBe(200);
      expect((await call(second.httpUrl, 'POST', '/api/auth/login', { username: 'tenant@thingsboard.org', password: 'tenant' })).status).toBe(401);
      await loginAs(second, undefined, 'changed');
    } finally {
      await stopTestServer(second);
    }
  });
});
