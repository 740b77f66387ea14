// DeviceProfileController beyond create/read/delete: infos, names, the keys of a profile's devices,
// and switching the default, read back through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { TENANT_ID } from '../control-api/entities.js';
import { newDeviceVia, startAdminServer, UNKNOWN_ID, type Api } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

type Info = { id: { id: string }; name: string; type: string; transportType: string; image: null; defaultDashboardId: null };
const newProfile = async (name: string, fields: object = {}) =>
  ((await api('POST', '/api/deviceProfile', { name, ...fields })).json() as { id: { id: string } }).id.id;

describe('device profile infos', () => {
  it('reads one info, the default one, a page of them filtered by transport type, and a list by ids', async () => {
    const id = await newProfile('info-mqtt', { transportType: 'MQTT' });
    const info = (await api('GET', `/api/deviceProfileInfo/${id}`)).json();
    expect(info).toEqual({ id: { entityType: 'DEVICE_PROFILE', id }, tenantId: { entityType: 'TENANT', id: TENANT_ID }, name: 'info-mqtt', image: null, defaultDashboardId: null, type: 'DEFAULT', transportType: 'MQTT' });
    expect((await api('GET', `/api/deviceProfileInfo/${UNKNOWN_ID}`)).status).toBe(404);
    const defaultInfo = (await api('GET', '/api/deviceProfileInfo/default')).json() as Info;
    expect(defaultInfo).toMatchObject({ id: { id: server.ctx.store.defaultProfile().id }, name: 'default' });

    const mqtt = (await api('GET', '/api/deviceProfileInfos?pageSize=10&transportType=MQTT')).json() as { data: Info[]; totalElements: number };
    expect(mqtt).toMatchObject({ totalElements: 1, data: [{ name: 'info-mqtt' }] });
    const searched = (await api('GET', '/api/deviceProfileInfos?pageSize=10&textSearch=INFO-')).json() as { data: Info[] };
    expect(searched.data.map((p) => p.name)).toEqual(['info-mqtt']);
    expect((await api('GET', '/api/deviceProfileInfos')).status).toBe(400);

    const byIds = (await api('GET', `/api/deviceProfileInfos/list?deviceProfileIds=${id},${UNKNOWN_ID}`)).json() as Info[];
    expect(byIds.map((p) => p.name)).toEqual(['info-mqtt']);
    const sameViaParam = (await api('GET', `/api/deviceProfileInfos?deviceProfileIds=${id}`)).json() as Info[];
    expect(sameViaParam).toEqual(byIds);
    expect((await api('GET', '/api/deviceProfileInfos/list?deviceProfileIds=nope')).status).toBe(400);
  });

  it('lists profile names, or only those with devices', async () => {
    const used = await newProfile('names-used');
    await newProfile('names-unused');
    await newDeviceVia(api, { deviceProfileId: { entityType: 'DEVICE_PROFILE', id: used } });
    const names = async (query: string) => ((await api('GET', `/api/deviceProfile/names${query}`)).json() as { id: { id: string }; name: string }[]).map((p) => p.name);
    expect(await names('')).toEqual(expect.arrayContaining(['names-used', 'names-unused', 'default']));
    const active = await names('?activeOnly=true');
    expect(active).toContain('names-used');
    expect(active).not.toContain('names-unused');
  });

  it('lists the time-series and attribute keys of the devices of a profile, or of every device', async () => {
    const profile = await newProfile('keys-profile');
    const ref = { entityType: 'DEVICE_PROFILE', id: profile };
    const a = await newDeviceVia(api, { deviceProfileId: ref });
    const b = await newDeviceVia(api, { deviceProfileId: ref });
    const other = await newDeviceVia(api);
    await call(server.httpUrl, 'POST', `/api/v1/${a.token}/telemetry`, { t1: 1 });
    await call(server.httpUrl, 'POST', `/api/v1/${b.token}/telemetry`, { t2: 1, t1: 2 });
    await call(server.httpUrl, 'POST', `/api/v1/${other.token}/telemetry`, { elsewhere: 1 });
    await call(server.httpUrl, 'POST', `/api/v1/${a.token}/attributes`, { ca: 1 });
    await api('POST', `/api/plugins/telemetry/DEVICE/${b.id}/attributes/SHARED_SCOPE`, { sa: 1 });
    expect((await api('GET', `/api/deviceProfile/devices/keys/timeseries?deviceProfileId=${profile}`)).json()).toEqual(['t1', 't2']);
    expect((await api('GET', `/api/deviceProfile/devices/keys/attributes?deviceProfileId=${profile}`)).json()).toEqual(['active', 'ca', 'sa']);
    expect((await api('GET', '/api/deviceProfile/devices/keys/timeseries')).json()).toEqual(expect.arrayContaining(['t1', 't2', 'elsewhere']));
    expect((await api('GET', `/api/deviceProfile/devices/keys/timeseries?deviceProfileId=${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('makes a profile the default, and the previous default stops being it', async () => {
    const before = server.ctx.store.defaultProfile().id;
    const id = await newProfile('next-default-2');
    const res = await api('POST', `/api/deviceProfile/${id}/default`);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ id: { id }, default: true });
    expect((await api('GET', '/api/deviceProfileInfo/default')).json()).toMatchObject({ id: { id } });
    expect((await api('GET', `/api/deviceProfile/${before}`)).json()).toMatchObject({ default: false });
    // A device created without a profile now lands in the new default.
    expect((await api('POST', '/api/device', { name: 'in-new-default' })).json()).toMatchObject({ deviceProfileId: { id }, type: 'next-default-2' });
    await api('POST', `/api/deviceProfile/${before}/default`);
    expect((await api('POST', `/api/deviceProfile/${UNKNOWN_ID}/default`)).status).toBe(404);
  });
});
