// CustomerController, UserController's calls for customer users, and AuthController's user and token
// calls, read back through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { activatedUser, client, startAdminServer, UNKNOWN_ID, type Api } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

const newCustomer = async (title: string) => ((await api('POST', '/api/customer', { title })).json() as { id: { id: string } }).id.id;
const newUser = async (email: string, customerId: string) =>
  ((await api('POST', '/api/user?sendActivationMail=false', { email, authority: 'CUSTOMER_USER', customerId: { entityType: 'CUSTOMER', id: customerId }, firstName: 'F' })).json() as { id: { id: string } }).id.id;

describe('customers', () => {
  it('pages, searches and sorts customers, finds one by title, reads its short info and title, and lists by ids', async () => {
    const a = await newCustomer('Cust Alpha');
    const b = await newCustomer('cust beta');
    const page = (await api('GET', '/api/customers?pageSize=10&textSearch=CUST&sortProperty=title&sortOrder=DESC')).json() as { data: { title: string }[]; totalElements: number };
    expect(page.data.map((c) => c.title)).toEqual(['cust beta', 'Cust Alpha']);
    expect((await api('GET', '/api/customers')).status).toBe(400);
    expect((await api('GET', '/api/tenant/customers?customerTitle=cust%20beta')).json()).toMatchObject({ id: { id: b }, title: 'cust beta' });
    const missing = await api('GET', '/api/tenant/customers?customerTitle=nobody');
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ message: 'Customer with title [nobody] is not found' });
    expect((await api('GET', `/api/customer/${a}/shortInfo`)).json()).toEqual({ title: 'Cust Alpha', isPublic: false });
    const title = await api('GET', `/api/customer/${a}/title`);
    expect(title.text).toBe('Cust Alpha');
    expect(title.headers['content-type']).toMatch(/^application\/text/);
    expect((await api('GET', `/api/customer/${UNKNOWN_ID}/title`)).status).toBe(404);
    const listed = (await api('GET', `/api/customers/list?customerIds=${a},${UNKNOWN_ID},${b}`)).json() as { id: { id: string } }[];
    expect(listed.map((c) => c.id.id)).toEqual([a, b]);
    expect((await api('GET', `/api/customers?customerIds=${b}`)).json()).toMatchObject([{ id: { id: b } }]);
  });
});

describe('users', () => {
  it('reads, lists and deletes customer users', async () => {
    const customerId = await newCustomer('Users Inc');
    const u1 = await newUser('u1@users.example', customerId);
    await newUser('u2@users.example', customerId);
    expect((await api('GET', `/api/user/${u1}`)).json()).toMatchObject({ id: { entityType: 'USER', id: u1 }, email: 'u1@users.example', authority: 'CUSTOMER_USER', firstName: 'F', customerId: { id: customerId } });
    const page = (await api('GET', `/api/customer/${customerId}/users?pageSize=10&sortProperty=email&sortOrder=DESC`)).json() as { data: { email: string }[] };
    expect(page.data.map((u) => u.email)).toEqual(['u2@users.example', 'u1@users.example']);
    const all = (await api('GET', '/api/users?pageSize=100&textSearch=users.example')).json() as { totalElements: number };
    expect(all.totalElements).toBe(2);
    expect((await api('GET', '/api/user/tokenAccessEnabled')).text).toBe('true');
    expect((await api('DELETE', `/api/user/${u1}`)).status).toBe(200);
    expect((await api('GET', `/api/user/${u1}`)).status).toBe(404);
    expect((await api('DELETE', `/api/user/${u1}`)).status).toBe(404);
    const me = server.ctx.store.userByEmail('tenant@thingsboard.org')!.id;
    expect((await api('DELETE', `/api/user/${me}`)).status).toBe(400);
  });
});

describe('auth', () => {
  it('answers the current user, refreshes a token pair, and logs out', async () => {
    expect((await api('GET', '/api/auth/user')).json()).toMatchObject({ email: 'tenant@thingsboard.org', authority: 'TENANT_ADMIN' });
    const login = await call(server.httpUrl, 'POST', '/api/auth/login', { username: 'tenant@thingsboard.org', password: 'tenant' });
    const { refreshToken, token } = login.json() as { refreshToken: string; token: string };
    const refreshed = await call(server.httpUrl, 'POST', '/api/auth/token', { refreshToken });
    expect(refreshed.status).toBe(200);
    const pair = refreshed.json() as { token: string; refreshToken: string };
    expect((await client(server, pair.token)('GET', '/api/auth/user')).json()).toMatchObject({ email: 'tenant@thingsboard.org' });
    // An access token is no refresh token, and a refresh token opens nothing else.
    expect((await call(server.httpUrl, 'POST', '/api/auth/token', { refreshToken: token })).status).toBe(401);
    expect((await call(server.httpUrl, 'POST', '/api/auth/token', { refreshToken: 'garbage' })).json()).toMatchObject({ status: 401, errorCode: 10 });
    expect((await call(server.httpUrl, 'GET', '/api/auth/user', undefined, { 'x-authorization': `Bearer ${refreshToken}` })).status).toBe(401);
    expect((await call(server.httpUrl, 'POST', '/api/auth/token', {})).status).toBe(400);
    // Logging out outdates that session only (control-passwords.test.ts): the session of `api` goes on.
    expect((await client(server, token)('POST', '/api/auth/logout')).status).toBe(200);
  });

  it('lets a customer user read itself', async () => {
    const customerId = await newCustomer('Self Co');
    const userId = await newUser('self@self.example', customerId);
    const pair = (await api('GET', `/api/user/${userId}/token`)).json() as { token: string };
    const me = client(server, pair.token);
    expect((await me('GET', '/api/auth/user')).json()).toMatchObject({ id: { id: userId }, authority: 'CUSTOMER_USER' });
    expect((await me('GET', '/api/users?pageSize=10')).status).toBe(403);
  });
});

describe('users by ids, as e-mail infos, and with their credentials disabled', () => {
  it('lists users by ids at /users and /users/list, leaving unknown ids out', async () => {
    const c = await newCustomer('Ids Customer');
    const [u1, u2] = [await newUser('ids-1@x.example', c), await newUser('ids-2@x.example', c)];
    for (const path of [`/api/users?userIds=${u1},${UNKNOWN_ID},${u2}`, `/api/users/list?userIds=${u2},${u1}`]) {
      const users = (await api('GET', path)).json() as { id: { id: string }; email: string }[];
      expect(users.map((u) => u.email).sort(), path).toEqual(['ids-1@x.example', 'ids-2@x.example']);
    }
    expect((await api('GET', '/api/users/list?userIds=nope')).status).toBe(400);
  });

  it('pages the tenant\'s users as {id, email, firstName, lastName}, searched by name or e-mail', async () => {
    const c = await newCustomer('Info Customer');
    const id = await newUser('info-person@x.example', c);
    const page = (await api('GET', '/api/users/info?pageSize=10&textSearch=INFO-PERSON')).json() as { data: unknown[]; totalElements: number };
    expect(page).toEqual({ data: [{ id: { entityType: 'USER', id }, email: 'info-person@x.example', firstName: 'F', lastName: null }], totalPages: 1, totalElements: 1, hasNext: false });
  });

  it('refuses the tenant admins of a tenant (a system administrator\'s call) with 403', async () => {
    const res = await api('GET', `/api/tenant/${UNKNOWN_ID}/users?pageSize=10`);
    expect(res.json()).toMatchObject({ status: 403, errorCode: 20, message: "You don't have permission to perform this operation!" });
  });

  it('disables a user\'s credentials: no login or refresh, earlier tokens refused; enabling them lets the user in again', async () => {
    const { id: userId } = await activatedUser(server, api, { email: 'disabled@x.example', authority: 'TENANT_ADMIN' }, 'pass-word');
    const login = () => call(server.httpUrl, 'POST', '/api/auth/login', { username: 'disabled@x.example', password: 'pass-word' });
    const pair = (await login()).json() as { refreshToken: string };
    expect((await api('POST', `/api/user/${userId}/userCredentialsEnabled?userCredentialsEnabled=false`)).status).toBe(200);
    expect((await login()).json()).toMatchObject({ status: 401, errorCode: 10, message: 'User account is not active' });
    expect((await call(server.httpUrl, 'POST', '/api/auth/token', { refreshToken: pair.refreshToken })).json())
      .toMatchObject({ status: 401, message: 'User account is not active' });
    expect((await api('POST', `/api/user/${userId}/userCredentialsEnabled`)).status).toBe(200);
    expect((await login()).status).toBe(200);
    expect((await api('POST', `/api/user/${UNKNOWN_ID}/userCredentialsEnabled`)).status).toBe(404);
  });
});

describe('UserController calls about what dhi does not model', () => {
  it('answers alarms, user settings, dashboards and mobile sessions with 501 naming them', async () => {
    const calls: ['GET' | 'POST' | 'PUT' | 'DELETE', string, object | undefined, string][] = [
      ['GET', `/api/users/assign/${UNKNOWN_ID}?pageSize=10&page=0`, undefined, 'alarms'],
      ['POST', '/api/user/settings', { a: 1 }, 'user settings'],
      ['PUT', '/api/user/settings', { a: 1 }, 'user settings'],
      ['GET', '/api/user/settings', undefined, 'user settings'],
      ['PUT', '/api/user/settings/general', { a: 1 }, 'user settings'],
      ['GET', '/api/user/settings/general', undefined, 'user settings'],
      ['DELETE', '/api/user/settings/a.b', undefined, 'user settings'],
      ['PUT', '/api/user/settings/quick_links', { a: 1 }, 'user settings'],
      ['GET', '/api/user/settings/quick_links', undefined, 'user settings'],
      ['DELETE', '/api/user/settings/quick_links/a.b', undefined, 'user settings'],
      ['GET', '/api/user/dashboards', undefined, 'dashboards'],
      ['GET', '/api/user/lastVisitedDashboards', undefined, 'dashboards'],
      ['GET', `/api/user/dashboards/${UNKNOWN_ID}/visit`, undefined, 'dashboards'],
      ['GET', '/api/user/mobile/session', undefined, 'mobile app sessions'],
      ['POST', '/api/user/mobile/session', {}, 'mobile app sessions'],
      ['DELETE', '/api/user/mobile/session', undefined, 'mobile app sessions'],
    ];
    for (const [method, path, body, what] of calls) {
      const res = await api(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(501);
      expect(res.json(), path).toMatchObject({ status: 501, errorCode: 2, message: expect.stringContaining(`dhi does not model ${what}`) });
    }
  });
});
