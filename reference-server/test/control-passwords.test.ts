// Changing a password and logging out (AuthController), over real sockets: ThingsBoard's checks and
// messages, the new JWT pair, and the earlier tokens refused afterwards. Tokens are outdated to the
// second (ThingsBoard's TokenOutdatingService), so the server's clock is moved on between issuing a
// token and outdating it (only Date is faked; the server runs in this process).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { activatedUser, client, startAdminServer, type Api } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));
afterEach(() => {
  vi.useRealTimers();
});

interface Pair {
  token: string;
  refreshToken: string;
}

const login = async (username: string, password: string): Promise<Pair> => {
  const res = await call(server.httpUrl, 'POST', '/api/auth/login', { username, password });
  expect(res.status).toBe(200);
  return res.json() as Pair;
};
const refresh = (pair: Pair) => call(server.httpUrl, 'POST', '/api/auth/token', { refreshToken: pair.refreshToken });
const me = (pair: Pair) => call(server.httpUrl, 'GET', '/api/auth/user', undefined, { 'x-authorization': `Bearer ${pair.token}` });

/** Moves the clock on by two seconds, so that what happens next is in a later second than the tokens so far. */
function laterSecond(): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now + 2000);
}

/** A tenant admin of its own, activated by its link with this password. */
async function adminWithPassword(email: string, password: string): Promise<void> {
  await activatedUser(server, api, { email, authority: 'TENANT_ADMIN' }, password);
}

describe('changing a password', () => {
  it('refuses a wrong current password, a new one outside the policy, and the same one, with ThingsBoard\'s messages', async () => {
    await adminWithPassword('policy@x.example', 'first-password');
    const as = client(server, (await login('policy@x.example', 'first-password')).token);
    const change = (currentPassword: string, newPassword: string) => as('POST', '/api/auth/changePassword', { currentPassword, newPassword });
    const refused: [string, string, string][] = [
      ['wrong', 'second-password', "Current password doesn't match!"],
      ['first-password', '12345', 'Password must be 6 or more characters in length.'],
      ['first-password', 'x'.repeat(73), 'Password must be no more than 72 characters in length.'],
      ['first-password', 'first-password', 'New password should be different from existing!'],
    ];
    for (const [current, next, message] of refused) {
      const res = await change(current, next);
      expect(res.status, message).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, errorCode: 31, message });
    }
    expect((await as('POST', '/api/auth/changePassword', { currentPassword: 'x' })).status).toBe(400);
    expect((await change('first-password', 'x'.repeat(72))).status).toBe(200);
  });

  it('answers a new JWT pair, refuses the user\'s earlier tokens, and logs in with the new password only', async () => {
    await adminWithPassword('changer@x.example', 'old-password');
    const before = await login('changer@x.example', 'old-password');
    laterSecond();
    const res = await call(server.httpUrl, 'POST', '/api/auth/changePassword', { currentPassword: 'old-password', newPassword: 'new-password' },
      { 'x-authorization': `Bearer ${before.token}` });
    expect(res.status).toBe(200);
    const after = res.json() as Pair;
    expect(after.token.split('.')).toHaveLength(3);
    expect((await me(after)).status).toBe(200);
    expect((await me(before)).json()).toMatchObject({ status: 401, errorCode: 11, message: 'Token has expired' });
    expect((await refresh(before)).json()).toMatchObject({ status: 401, errorCode: 10, message: 'Token is outdated' });
    expect((await refresh(after)).status).toBe(200);
    const old = await call(server.httpUrl, 'POST', '/api/auth/login', { username: 'changer@x.example', password: 'old-password' });
    expect(old.json()).toMatchObject({ status: 401, message: 'Invalid username or password' });
    expect((await me(await login('changer@x.example', 'new-password'))).status).toBe(200);
  });

  it('answers a user without a password (made through the API) that the current password does not match', async () => {
    const created = (await api('POST', '/api/user', { email: 'nopass@x.example', authority: 'TENANT_ADMIN' })).json() as { id: { id: string } };
    const pair = (await api('GET', `/api/user/${created.id.id}/token`)).json() as Pair;
    const res = await client(server, pair.token)('POST', '/api/auth/changePassword', { currentPassword: '', newPassword: 'whatever' });
    expect(res.json()).toMatchObject({ status: 400, message: "Current password doesn't match!" });
  });
});

describe('logging out', () => {
  it('refuses the tokens of the session logged out, and only those', async () => {
    const [a, b] = [await login('tenant@thingsboard.org', 'tenant'), await login('tenant@thingsboard.org', 'tenant')];
    laterSecond();
    expect((await call(server.httpUrl, 'POST', '/api/auth/logout', undefined, { 'x-authorization': `Bearer ${a.token}` })).status).toBe(200);
    expect((await me(a)).json()).toMatchObject({ status: 401, errorCode: 11 });
    expect((await refresh(a)).json()).toMatchObject({ status: 401, errorCode: 10, message: 'Token is outdated' });
    expect((await me(b)).status).toBe(200);
    expect((await refresh(b)).status).toBe(200);
  });
});

describe('the calls without a token', () => {
  it('answers the password policy', async () => {
    const res = await client(server, 'none')('GET', '/api/noauth/userPasswordPolicy');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      minimumLength: 6, maximumLength: 72, minimumUppercaseLetters: null, minimumLowercaseLetters: null, minimumDigits: null,
      minimumSpecialCharacters: null, allowWhitespaces: true, forceUserToResetPasswordIfNotValid: false,
      passwordExpirationPeriodDays: null, passwordReuseFrequencyDays: null,
    });
  });

  it('answers password reset by e-mail with 501 naming what dhi leaves out', async () => {
    const calls: ['GET' | 'POST', string, object?, string?][] = [
      ['POST', '/api/noauth/resetPasswordByEmail', { email: 'a@b.c' }, 'password reset by e-mail'],
      ['GET', '/api/noauth/resetPassword?resetToken=t', undefined, 'password reset by e-mail'],
      ['POST', '/api/noauth/resetPassword', { resetToken: 't', password: 'secret1' }, 'password reset by e-mail'],
    ];
    for (const [method, path, body, what] of calls) {
      const res = await client(server, 'none')(method, path, body);
      expect(res.status, path).toBe(501);
      expect((res.json() as { message: string }).message).toContain(`dhi does not model ${what}`);
    }
  });
});
