// User activation by link, the system info and a device's publish commands, over real sockets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, stopTestServer, type TestServer } from './helpers.js';
import { adminApi, newDeviceVia, UNKNOWN_ID, type Api } from './control-helpers.js';

let server: TestServer;
let api: Api;

beforeAll(async () => {
  // Both listeners, on ports of their own.
  server = await startTestServer({ httpsPort: 0 });
  api = await adminApi(server);
});
afterAll(() => stopTestServer(server));

const noauth = (method: 'GET' | 'POST', path: string, body?: object) => call(server.httpUrl, method, path, body);
const login = (username: string, password: string) => noauth('POST', '/api/auth/login', { username, password });

async function newUser(email: string): Promise<string> {
  const res = await api('POST', '/api/user?sendActivationMail=false', { email, authority: 'TENANT_ADMIN' });
  return (res.json() as { id: { id: string } }).id.id;
}

describe('user activation by link', () => {
  it('leaves a new user inactive until it sets its password through the link, then logs it in', async () => {
    const id = await newUser('activate-me@example.com');
    expect((await login('activate-me@example.com', 'whatever1')).json()).toMatchObject({ status: 401, message: 'User account is not active' });

    const link = await api('GET', `/api/user/${id}/activationLink`);
    expect(link.status).toBe(200);
    expect(link.headers['content-type']).toMatch(/^text\/plain/);
    expect(link.text).toMatch(new RegExp(`^${server.httpUrl}/api/noauth/activate\\?activateToken=[A-Za-z0-9_-]{40}$`));
    const activateToken = new URL(link.text).searchParams.get('activateToken')!;
    const info = (await api('GET', `/api/user/${id}/activationLinkInfo`)).json() as { value: string; ttlMs: number };
    expect(info.value).toBe(link.text);
    expect(info.ttlMs).toBeGreaterThan(23 * 3_600_000);
    expect(info.ttlMs).toBeLessThanOrEqual(24 * 3_600_000);

    const check = await noauth('GET', `/api/noauth/activate?activateToken=${activateToken}`);
    expect(check.status).toBe(303);
    expect(check.headers.location).toBe(`/login/createPassword?activateToken=${activateToken}`);
    expect((await noauth('GET', '/api/noauth/activate?activateToken=unknown')).status).toBe(409);

    expect((await noauth('POST', '/api/noauth/activate', { activateToken, password: 'short' })).json())
      .toMatchObject({ status: 400, message: 'Password must be 6 or more characters in length.' });
    const activated = await noauth('POST', '/api/noauth/activate?sendActivationMail=false', { activateToken, password: 'password123' });
    expect(activated.status).toBe(200);
    const { token } = activated.json() as { token: string };
    const me = await call(server.httpUrl, 'GET', '/api/auth/user', undefined, { 'x-authorization': `Bearer ${token}` });
    expect(me.json()).toMatchObject({ email: 'activate-me@example.com' });
    expect((await login('activate-me@example.com', 'password123')).status).toBe(200);

    expect((await noauth('POST', '/api/noauth/activate', { activateToken, password: 'password123' })).json())
      .toMatchObject({ status: 400, message: `Unable to find user credentials by activateToken [${activateToken}]` });
    expect((await api('GET', `/api/user/${id}/activationLink`)).json()).toMatchObject({ status: 400, message: 'User is already activated!' });
    expect((await api('GET', `/api/user/${UNKNOWN_ID}/activationLink`)).status).toBe(404);
  });

  it('refuses an expired token, and gives a new link when the old one is about to expire', async () => {
    const id = await newUser('expired-link@example.com');
    const { store } = server.ctx;
    const old = store.activation(id)!;
    await store.write(() => store.setActivation(id, { token: old.token, expiresAt: Date.now() - 1 }));
    expect((await noauth('GET', `/api/noauth/activate?activateToken=${old.token}`)).headers.location).toBe('/activationLinkExpired');
    expect((await noauth('POST', '/api/noauth/activate', { activateToken: old.token, password: 'password123' })).json())
      .toMatchObject({ status: 400, message: 'Activation token expired' });
    const renewed = new URL((await api('GET', `/api/user/${id}/activationLink`)).text).searchParams.get('activateToken')!;
    expect(renewed).not.toBe(old.token);
    expect((await noauth('POST', '/api/noauth/activate', { activateToken: renewed, password: 'password123' })).status).toBe(200);
  });
});

describe('system info', () => {
  it('answers as ThingsBoard CE, to tenant admins and customer users', async () => {
    const res = await api('GET', '/api/system/info');
    expect(res.json()).toEqual({ version: '4.4.0', artifact: 'dhi', name: 'dhi reference server', type: 'CE' });
    expect((await noauth('GET', '/api/system/info')).status).toBe(401);
  });
});

describe('device connectivity', () => {
  it('answers the curl commands for dhi\'s HTTP and HTTPS listeners, without MQTT or CoAP', async () => {
    const device = await newDeviceVia(api);
    const res = await api('GET', `/api/device-connectivity/${device.id}`);
    expect(res.status).toBe(200);
    const { port: httpPort } = new URL(server.httpUrl);
    const { port: httpsPort } = new URL(server.httpsUrl!);
    expect(res.json()).toEqual({
      http: {
        http: `curl -v -X POST http://127.0.0.1:${httpPort}/api/v1/${device.token}/telemetry --header Content-Type:application/json --data "{temperature:25}"`,
        https: `curl -v -X POST https://127.0.0.1:${httpsPort}/api/v1/${device.token}/telemetry --header Content-Type:application/json --data "{temperature:25}"`,
      },
    });
    expect((await api('GET', `/api/device-connectivity/${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('answers no HTTP command for other credentials or transports, and ThingsBoard\'s note for LwM2M and SNMP', async () => {
    const mqtt = (await api('POST', '/api/deviceProfile', { name: 'conn-mqtt', transportType: 'MQTT' })).json() as { id: object };
    const onMqtt = await newDeviceVia(api, { deviceProfileId: mqtt.id });
    expect((await api('GET', `/api/device-connectivity/${onMqtt.id}`)).json()).toEqual({});
    const snmp = (await api('POST', '/api/deviceProfile', { name: 'conn-snmp', transportType: 'SNMP' })).json() as { id: object };
    const onSnmp = await newDeviceVia(api, { deviceProfileId: snmp.id });
    expect((await api('GET', `/api/device-connectivity/${onSnmp.id}`)).json()).toEqual({ SNMP: 'Check documentation' });
    const basic = await api('POST', '/api/device-with-credentials', {
      device: { name: 'conn-basic' }, credentials: { credentialsType: 'MQTT_BASIC', credentialsValue: JSON.stringify({ clientId: 'c1', userName: 'u', password: 'p' }) },
    });
    expect((await api('GET', `/api/device-connectivity/${(basic.json() as { id: { id: string } }).id.id}`)).json()).toEqual({});
  });
});
