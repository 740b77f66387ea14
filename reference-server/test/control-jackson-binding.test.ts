// Request bodies as ThingsBoard's Jackson binding reads them, over real sockets, read back: a number
// or a boolean where the model has a String, a number in a string or a fraction where it has a long,
// 1/0 and "TRUE" where it has a boolean; what Jackson refuses stays 400. And additionalInfo, a
// JsonNode in ThingsBoard, takes any JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { startAdminServer, type Api } from './control-helpers.js';

type Entity = { id: { id: string } } & Record<string, unknown>;

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

async function saved(path: string, body: string | object): Promise<Entity> {
  const res = await api('POST', path, body);
  expect(res.status, res.text).toBe(200);
  return res.json() as Entity;
}

describe('scalars bound as Jackson binds them', () => {
  it('takes numbers and booleans as the text of a customer\'s String fields, as sent', async () => {
    const customer = await saved('/api/customer', '{"title": 90210, "zip": 1.50, "phone": 15550100, "country": true, "city": null}');
    const read = (await api('GET', `/api/customer/${customer.id.id}`)).json();
    expect(read).toMatchObject({ title: '90210', name: '90210', zip: '1.50', phone: '15550100', country: 'true', city: null });
  });

  it('binds a device and its credentials in one body: the name from a number, the token from a number', async () => {
    const token = String(Date.now());
    const res = await api('POST', '/api/device-with-credentials', `{"device": {"name": ${token}, "label": false}, "credentials": {"credentialsType": "ACCESS_TOKEN", "credentialsId": ${token}}}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({ name: token, label: 'false' });
    // The token bound from a number is the device's token: the device API takes it.
    expect((await call(server.httpUrl, 'POST', `/api/v1/${token}/telemetry`, { t: 1 })).status).toBe(200);
    expect((await api('GET', `/api/tenant/device?deviceName=${token}`)).json()).toMatchObject({ name: token });
  });

  it('takes a long from a string or a fraction, and a boolean from 1/0 or its text in three cases', async () => {
    const userId = (server.ctx.store.userByEmail('tenant@thingsboard.org'))!.id;
    const expiry = Date.now() + 86_400_000;
    const key = await saved('/api/apiKey', { userId: { id: userId }, description: 7, enabled: 1, expirationTime: ` ${expiry} ` });
    expect(key).toMatchObject({ description: '7', enabled: true, expirationTime: expiry });
    const listed = async () => ((await api('GET', `/api/apiKeys/${userId}?pageSize=100&page=0`)).json() as { data: Entity[] }).data.find((k) => k.id.id === key.id.id);
    expect(await listed()).toMatchObject({ description: '7', enabled: true, expirationTime: expiry });
    const again = await saved('/api/apiKey', { id: key.id, userId: { id: userId }, description: 'k', enabled: 'FALSE', expirationTime: expiry + 0.9 });
    expect(again).toMatchObject({ enabled: false, expirationTime: expiry });
    expect(await listed()).toMatchObject({ description: 'k', enabled: false, expirationTime: expiry });
    // "" and "null" are null: a Java boolean false, a long 0 (never expires).
    expect(await saved('/api/apiKey', { userId: { id: userId }, description: 'k2', enabled: '', expirationTime: 'null' })).toMatchObject({ enabled: false, expirationTime: 0 });
  });

  it('still refuses what Jackson refuses: an object or an array for a String, text that is no number or boolean, a number for an enum or a uuid', async () => {
    for (const body of [
      { name: { text: 'x' } }, { name: ['x'] }, { name: 'ok', label: [1] },
      { name: 'ok', customerId: { id: 42 } },
    ]) {
      const res = await api('POST', '/api/device', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const userId = (server.ctx.store.userByEmail('tenant@thingsboard.org'))!.id;
    for (const fields of [{ enabled: 'yes' }, { enabled: 0.5 }, { expirationTime: '12h' }, { expirationTime: true }]) {
      const res = await api('POST', '/api/apiKey', { userId: { id: userId }, description: 'bad', ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
    }
    const authority = await api('POST', '/api/user', { email: 'enum@example.com', authority: 1 });
    expect(authority.status).toBe(400);
  });
});

describe('additionalInfo, a JsonNode', () => {
  it('keeps any JSON as sent on devices, customers, users and OTA packages, and returns it', async () => {
    const values = ['a text', 0, false, true, 2.5, [1, { a: 2 }], { nested: { deep: [null] } }, null];
    for (const [i, additionalInfo] of values.entries()) {
      const device = await saved('/api/device', { name: `info-${i}-${process.pid}`, additionalInfo });
      expect(device.additionalInfo).toEqual(additionalInfo);
      expect((await api('GET', `/api/device/${device.id.id}`)).json()).toMatchObject({ additionalInfo });
    }
    const customer = await saved('/api/customer', { title: 'info-customer', additionalInfo: 42 });
    expect((await api('GET', `/api/customer/${customer.id.id}`)).json()).toMatchObject({ additionalInfo: 42 });
    const user = await saved('/api/user', { email: 'info@example.com', authority: 'TENANT_ADMIN', additionalInfo: ['a', 'b'] });
    expect((await api('GET', `/api/user/${user.id.id}`)).json()).toMatchObject({ additionalInfo: ['a', 'b'] });
    const ota = await saved('/api/otaPackage', { title: 'info-fw', version: '1', type: 'FIRMWARE', additionalInfo: 'release notes' });
    expect((await api('GET', `/api/otaPackage/info/${ota.id.id}`)).json()).toMatchObject({ additionalInfo: 'release notes' });
  });
});
