import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { startAdminServer, UNKNOWN_ID as UNKNOWN, newDeviceVia, openPolls, type Api } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

describe('devices', () => {
  it('creates a device with a generated 20-character token, in the default profile, unassigned', async () => {
    const res = await api('POST', '/api/device', { name: 'dev-generated', label: 'Hall' });
    expect(res.status).toBe(200);
    const device = res.json() as Record<string, { id: string }>;
    expect(device).toMatchObject({
      id: { entityType: 'DEVICE' }, name: 'dev-generated', type: 'default', label: 'Hall',
      deviceProfileId: { entityType: 'DEVICE_PROFILE', id: server.ctx.store.defaultProfile().id },
      customerId: { entityType: 'CUSTOMER', id: '13814000-1dd2-11b2-8080-808080808080' },
      firmwareId: null, softwareId: null,
    });
    const credentials = await api('GET', `/api/device/${device.id.id}/credentials`);
    expect(credentials.json()).toMatchObject({ deviceId: { entityType: 'DEVICE', id: device.id.id }, credentialsType: 'ACCESS_TOKEN', credentialsValue: null });
    const token = (credentials.json() as { credentialsId: string }).credentialsId;
    expect(token).toMatch(/^[A-Za-z0-9]{20}$/);
    expect((await call(server.httpUrl, 'POST', `/api/v1/${token}/telemetry`, { t: 1 })).status).toBe(200);
  });

  it('takes the token from ?accessToken and refuses a duplicate name or token with 400', async () => {
    const res = await api('POST', '/api/device?accessToken=DW00000042', { name: 'dev-token' });
    expect(res.status).toBe(200);
    expect(server.ctx.store.deviceByToken('DW00000042')?.name).toBe('dev-token');
    const sameName = await api('POST', '/api/device', { name: 'dev-token' });
    expect(sameName.status).toBe(400);
    expect(sameName.json()).toMatchObject({ status: 400, errorCode: 31, message: 'Device with such name already exists!' });
    expect((await api('POST', '/api/device?accessToken=DW00000042', { name: 'dev-token-2' })).status).toBe(400);
    expect(server.ctx.store.deviceByName('dev-token-2')).toBeUndefined();
  });

  it('updates a device when the body carries its id, keeping its token', async () => {
    const device = await newDeviceVia(api);
    const before = (await api('GET', `/api/device/${device.id}`)).json() as Record<string, unknown>;
    const res = await api('POST', '/api/device', { ...before, label: 'relabelled', additionalInfo: { floor: 2 } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id: { id: device.id }, label: 'relabelled', additionalInfo: { floor: 2 } });
    expect(server.ctx.store.deviceById(device.id)).toMatchObject({ label: 'relabelled', token: device.token });
    expect((await api('POST', '/api/device', { id: { entityType: 'DEVICE', id: UNKNOWN }, name: 'ghost' })).status).toBe(404);
  });

  it('rejects bad bodies and unknown references with 400', async () => {
    expect((await api('POST', '/api/device', { type: 'no-name' })).status).toBe(400);
    expect((await api('POST', '/api/device', '{"name":')).status).toBe(400);
    const badProfile = await api('POST', '/api/device', { name: 'dev-bad-profile', deviceProfileId: { entityType: 'DEVICE_PROFILE', id: UNKNOWN } });
    expect(badProfile.status).toBe(400);
    const badFirmware = await api('POST', '/api/device', { name: 'dev-bad-fw', firmwareId: { entityType: 'OTA_PACKAGE', id: UNKNOWN } });
    expect(badFirmware.status).toBe(400);
  });

  it('finds a device by name, lists pages, and answers 404 for an unknown name', async () => {
    const device = await newDeviceVia(api);
    const found = await api('GET', `/api/tenant/devices?deviceName=${device.name}`);
    expect(found.json()).toMatchObject({ id: { id: device.id }, name: device.name });
    expect((await api('GET', '/api/tenant/devices?deviceName=nope')).status).toBe(404);
    const page = await api('GET', `/api/tenant/devices?pageSize=1&page=0&textSearch=${device.name}`);
    expect(page.json()).toMatchObject({ data: [{ name: device.name }], totalPages: 1, totalElements: 1, hasNext: false });
    const all = (await api('GET', '/api/tenant/devices?pageSize=2')).json() as { totalElements: number; hasNext: boolean };
    expect(all.totalElements).toBeGreaterThan(2);
    expect(all.hasNext).toBe(true);
    expect((await api('GET', '/api/tenant/devices')).status).toBe(400);
    expect((await api('GET', '/api/tenant/devices?pageSize=0')).status).toBe(400);
  });

  it('answers 404 for an unknown device and 400 for a malformed id', async () => {
    for (const path of [`/api/device/${UNKNOWN}`, `/api/device/${UNKNOWN}/credentials`]) expect((await api('GET', path)).status).toBe(404);
    expect((await api('DELETE', `/api/device/${UNKNOWN}`)).status).toBe(404);
    expect((await api('GET', '/api/device/123')).status).toBe(400);
  });

  it('deletes a device: its open polls end 403 "Device was deleted!" as in ThingsBoard, and its token gives 401', async () => {
    const device = await newDeviceVia(api);
    const polls = [
      call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes/updates?timeout=20000`),
      call(server.httpUrl, 'GET', `/api/v1/${device.token}/rpc?timeout=20000`),
      call(server.httpUrl, 'POST', `/api/v1/${device.token}/rpc`, { method: 'noRuleForThis', params: {} }),
    ];
    await Promise.all([openPolls(server, 'attributes', 1), openPolls(server, 'rpc', 1), openPolls(server, 'clientRpc', 1)]);
    expect((await api('DELETE', `/api/device/${device.id}`)).status).toBe(200);
    for (const ended of await Promise.all(polls)) {
      expect(ended.status).toBe(403);
      expect(ended.text).toBe('Device was deleted!');
      expect(ended.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    expect(server.ctx.polls.size()).toEqual({ attributes: 0, rpc: 0, clientRpc: 0, timers: 0 });
    expect((await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 1 })).status).toBe(401);
    expect((await api('GET', `/api/device/${device.id}`)).status).toBe(404);
  });

  it('generates a token for an empty ?accessToken=, as for a missing one', async () => {
    const res = await api('POST', '/api/device?accessToken=', { name: 'dev-empty-token' });
    expect(res.status).toBe(200);
    const { id } = (res.json() as { id: { id: string } }).id;
    const credentials = (await api('GET', `/api/device/${id}/credentials`)).json() as { credentialsId: string };
    expect(credentials.credentialsId).toMatch(/^[A-Za-z0-9]{20}$/);
    expect((await call(server.httpUrl, 'POST', `/api/v1/${credentials.credentialsId}/telemetry`, { t: 1 })).status).toBe(200);
  });

  it('puts a device in the profile its type names, creating the profile once, and types a device by its profile', async () => {
    const first = (await api('POST', '/api/device', { name: 'dev-thermo-1', type: 'thermostat' })).json() as { deviceProfileId: { id: string }; type: string };
    const profile = (await api('GET', `/api/deviceProfile/${first.deviceProfileId.id}`)).json() as { name: string; default: boolean };
    expect(profile).toMatchObject({ name: 'thermostat', default: false });
    const second = (await api('POST', '/api/device', { name: 'dev-thermo-2', type: 'thermostat' })).json() as { deviceProfileId: { id: string } };
    expect(second.deviceProfileId.id).toBe(first.deviceProfileId.id);
    // deviceProfileId without type: the type is the profile's name, not "default".
    const byProfile = await api('POST', '/api/device', { name: 'dev-by-profile', deviceProfileId: { entityType: 'DEVICE_PROFILE', id: first.deviceProfileId.id } });
    expect(byProfile.json()).toMatchObject({ type: 'thermostat', deviceProfileId: { id: first.deviceProfileId.id } });
    // deviceProfileId wins over a type naming another profile.
    const both = await api('POST', '/api/device', { name: 'dev-both', type: 'other', deviceProfileId: { entityType: 'DEVICE_PROFILE', id: first.deviceProfileId.id } });
    expect(both.json()).toMatchObject({ type: 'thermostat' });
    expect(server.ctx.store.profileByName('other')).toBeUndefined();
  });
});
