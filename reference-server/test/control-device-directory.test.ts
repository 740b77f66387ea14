// DeviceController beyond create/read/delete: customer assignment, customer and info lists, device
// types, the by-name lookup, and credentials through the REST API, read back through the API.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { newDeviceVia, startAdminServer, UNKNOWN_ID, type Api } from './control-helpers.js';
import { migrate } from '../store/sqlite-schema.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

const newCustomer = async (title: string) => ((await api('POST', '/api/customer', { title })).json() as { id: { id: string } }).id.id;
type Page<T> = { data: T[]; totalElements: number };
type DeviceJson = { id: { id: string }; name: string; customerId: { id: string } };
const NULL_UUID = '13814000-1dd2-11b2-8080-808080808080';
/** Schema version 10: devices had no credentials id or version of their own. */
const BEFORE_CREDENTIALS = 10;

describe('customer assignment', () => {
  it('assigns a device to a customer, lists the customer\'s devices, and takes it back', async () => {
    const customerId = await newCustomer('acme');
    const device = await newDeviceVia(api);
    const other = await newDeviceVia(api);
    const assigned = await api('POST', `/api/customer/${customerId}/device/${device.id}`);
    expect(assigned.status).toBe(200);
    expect(assigned.json()).toMatchObject({ id: { id: device.id }, customerId: { entityType: 'CUSTOMER', id: customerId } });
    expect((await api('GET', `/api/device/${device.id}`)).json()).toMatchObject({ customerId: { id: customerId } });

    const page = (await api('GET', `/api/customer/${customerId}/devices?pageSize=10&page=0`)).json() as Page<DeviceJson>;
    expect(page.totalElements).toBe(1);
    expect(page.data.map((d) => d.name)).toEqual([device.name]);
    expect(page.data.map((d) => d.name)).not.toContain(other.name);

    const infos = (await api('GET', `/api/customer/${customerId}/deviceInfos?pageSize=10`)).json() as Page<Record<string, unknown>>;
    expect(infos.data).toEqual([expect.objectContaining({ name: device.name, customerTitle: 'acme', customerIsPublic: false, deviceProfileName: 'default', active: false })]);
    const activeOnes = (await api('GET', `/api/customer/${customerId}/deviceInfos?pageSize=10&active=true`)).json() as Page<DeviceJson>;
    expect(activeOnes.totalElements).toBe(0);
    await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes`);
    await server.ctx.deviceState.flush();
    const nowActive = (await api('GET', `/api/customer/${customerId}/deviceInfos?pageSize=10&active=true`)).json() as Page<DeviceJson>;
    expect(nowActive.data.map((d) => d.name)).toEqual([device.name]);

    const back = await api('DELETE', `/api/customer/device/${device.id}`);
    expect(back.json()).toMatchObject({ customerId: { id: NULL_UUID } });
    expect(((await api('GET', `/api/customer/${customerId}/devices?pageSize=10`)).json() as Page<DeviceJson>).totalElements).toBe(0);
    const again = await api('DELETE', `/api/customer/device/${device.id}`);
    expect(again.status).toBe(400);
    expect(again.json()).toMatchObject({ message: "Device isn't assigned to any customer!" });

    expect((await api('POST', `/api/customer/${UNKNOWN_ID}/device/${device.id}`)).status).toBe(404);
    expect((await api('POST', `/api/customer/${customerId}/device/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await api('GET', `/api/customer/${UNKNOWN_ID}/devices?pageSize=10`)).status).toBe(404);
    expect((await api('GET', `/api/customer/${customerId}/devices`)).status).toBe(400);
  });
});

describe('device infos, types and lookups', () => {
  it('reads a device info, pages infos filtered by type or profile, lists types and finds by name', async () => {
    const device = await newDeviceVia(api, { type: 'meter', label: 'Kitchen' });
    const info = (await api('GET', `/api/device/info/${device.id}`)).json();
    expect(info).toMatchObject({ id: { id: device.id }, type: 'meter', label: 'Kitchen', customerTitle: null, customerIsPublic: false, deviceProfileName: 'meter' });
    expect((await api('GET', `/api/device/info/${UNKNOWN_ID}`)).status).toBe(404);

    const meters = (await api('GET', '/api/tenant/deviceInfos?pageSize=10&type=meter')).json() as Page<{ name: string; deviceProfileName: string }>;
    expect(meters.data.map((d) => d.name)).toEqual([device.name]);
    const profileId = server.ctx.store.profileByName('meter')!.id;
    const byProfile = (await api('GET', `/api/tenant/deviceInfos?pageSize=10&deviceProfileId=${profileId}`)).json() as Page<{ name: string }>;
    expect(byProfile.data.map((d) => d.name)).toEqual([device.name]);
    expect(info).toMatchObject({ active: false });
    const names = async (query: string) => ((await api('GET', `/api/tenant/deviceInfos?pageSize=10&type=meter&${query}`)).json() as Page<{ name: string }>).data.map((d) => d.name);
    expect(await names('active=true')).toEqual([]);
    expect(await names('active=false')).toEqual([device.name]);
    // A device request makes it active (the device state), read back through the info and both filters.
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { t: 1 });
    await server.ctx.deviceState.flush();
    expect((await api('GET', `/api/device/info/${device.id}`)).json()).toMatchObject({ active: true });
    expect(await names('active=true')).toEqual([device.name]);
    expect(await names('active=false')).toEqual([]);
    expect((await api('GET', '/api/tenant/deviceInfos?pageSize=10&active=maybe')).status).toBe(400);

    const types = (await api('GET', '/api/device/types')).json() as { entityType: string; type: string }[];
    expect(types).toEqual(expect.arrayContaining([{ entityType: 'DEVICE', type: 'meter' }, { entityType: 'DEVICE', type: 'default' }]));
    expect(types.filter((t) => t.type === 'meter')).toHaveLength(1);

    expect((await api('GET', `/api/tenant/device?deviceName=${device.name}`)).json()).toMatchObject({ id: { id: device.id } });
    expect((await api('GET', '/api/tenant/device?deviceName=nobody')).status).toBe(404);
  });
});

describe('credentials through the REST API', () => {
  const sha3 = (text: string) => createHash('sha3-256').update(text).digest('hex');

  it('replaces a token with another token, an X.509 certificate and MQTT basic credentials', async () => {
    const device = await newDeviceVia(api);
    // As ThingsBoard's clients do: read the credentials (their own id), change them, save them back.
    const update = async (credentials: object) => {
      const { id } = (await api('GET', `/api/device/${device.id}/credentials`)).json() as { id: object };
      return api('POST', '/api/device/credentials', { id, deviceId: { entityType: 'DEVICE', id: device.id }, ...credentials });
    };
    const telemetry = (token: string) => call(server.httpUrl, 'POST', `/api/v1/${token}/telemetry`, { t: 1 });

    const token = await update({ credentialsType: 'ACCESS_TOKEN', credentialsId: 'NEW-TOKEN-1' });
    expect(token.json()).toMatchObject({ credentialsType: 'ACCESS_TOKEN', credentialsId: 'NEW-TOKEN-1', credentialsValue: null });
    expect((await telemetry(device.token)).status).toBe(401);
    expect((await telemetry('NEW-TOKEN-1')).status).toBe(200);

    const x509 = await update({ credentialsType: 'X509_CERTIFICATE', credentialsValue: 'CERTDATA' });
    expect(x509.json()).toMatchObject({ credentialsType: 'X509_CERTIFICATE', credentialsId: sha3('CERTDATA'), credentialsValue: 'CERTDATA' });
    expect((await telemetry('NEW-TOKEN-1')).status).toBe(401);

    const mqtt = await update({ credentialsType: 'MQTT_BASIC', credentialsValue: JSON.stringify({ clientId: 'cl', userName: 'us', password: 'pw' }) });
    expect(mqtt.json()).toMatchObject({ credentialsType: 'MQTT_BASIC', credentialsId: sha3('cl|us') });
    expect((await api('GET', `/api/device/${device.id}/credentials`)).json()).toMatchObject({
      credentialsType: 'MQTT_BASIC', credentialsValue: '{"clientId":"cl","userName":"us","password":"pw"}',
    });

    expect((await update({ credentialsType: 'ACCESS_TOKEN' })).json()).toMatchObject({ status: 400, message: 'Device credentials id should be specified!' });
    expect((await update({ credentialsType: 'MQTT_BASIC', credentialsValue: 'not json' })).json()).toMatchObject({ message: 'Invalid credentials body for simple mqtt credentials!' });
    expect((await update({ credentialsType: 'LWM2M_CREDENTIALS', credentialsValue: '{}' })).json()).toMatchObject({ status: 400, message: expect.stringContaining('LwM2M') });
    const taken = await newDeviceVia(api);
    expect((await update({ credentialsType: 'ACCESS_TOKEN', credentialsId: taken.token })).json()).toMatchObject({ message: 'Device credentials are already assigned to another device!' });
    expect((await api('POST', '/api/device/credentials', { deviceId: { entityType: 'DEVICE', id: UNKNOWN_ID }, credentialsType: 'ACCESS_TOKEN', credentialsId: 'x' })).status).toBe(404);
  });

  it('names the credentials by their own id, and checks and advances their version', async () => {
    const device = await newDeviceVia(api);
    const read = async () => (await api('GET', `/api/device/${device.id}/credentials`)).json() as { id: { id: string }; version: number };
    const first = await read();
    expect(first).toMatchObject({ id: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) }, version: 1 });
    const body = { deviceId: { id: device.id }, credentialsType: 'ACCESS_TOKEN', credentialsId: `VERSIONED-${device.id}` };
    const save = (fields: object) => api('POST', '/api/device/credentials', { ...body, ...fields });

    expect((await save({})).json()).toMatchObject({ status: 400, message: 'Credentials for this device are already specified!' });
    expect((await save({ id: { id: UNKNOWN_ID } })).json()).toMatchObject({ status: 400, message: 'Unable to update non-existent device credentials!' });
    const other = await newDeviceVia(api);
    const othersId = ((await api('GET', `/api/device/${other.id}/credentials`)).json() as { id: object }).id;
    expect((await save({ id: othersId })).json()).toMatchObject({ status: 400, message: 'Specified credentials are already registered!' });

    const saved = await save({ id: first.id, version: 1 });
    expect(saved.json()).toMatchObject({ id: first.id, version: 2, credentialsId: body.credentialsId });
    expect(await read()).toMatchObject({ id: first.id, version: 2 });
    // A stale version: ThingsBoard's optimistic lock, with its DAO's wording.
    const stale = await save({ id: first.id, version: 1, credentialsId: 'STALE' });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ errorCode: 35, message: 'Entity was already changed by someone else' });
    expect((await call(server.httpUrl, 'POST', `/api/v1/${body.credentialsId}/telemetry`, { t: 1 })).status).toBe(200);
    // Without a version the save overwrites; a device save leaves the credentials alone.
    expect((await save({ id: first.id })).json()).toMatchObject({ version: 3 });
    const deviceJson = (await api('GET', `/api/device/${device.id}`)).json() as object;
    expect((await api('POST', '/api/device', { ...deviceJson, label: 'moved' })).status).toBe(200);
    expect(await read()).toMatchObject({ id: first.id, version: 3 });
    // device-with-credentials finds them by device: the id stays, the version is checked and advanced.
    const both = (credentials: object) => api('POST', '/api/device-with-credentials', {
      device: { id: { id: device.id }, name: device.name }, credentials: { credentialsType: 'ACCESS_TOKEN', credentialsId: `BOTH-${device.id}`, ...credentials },
    });
    expect((await both({ version: 2 })).status).toBe(409);
    expect((await both({ version: 3 })).status).toBe(200);
    expect(await read()).toMatchObject({ id: first.id, version: 4 });
  });

  it('gives the devices an earlier dhi saved credentials of their own: a random id and version 1 (store migration)', () => {
    const db = new Database(':memory:');
    migrate(db, 'profile-1', 1, BEFORE_CREDENTIALS);
    const insert = db.prepare("INSERT INTO devices (id, name, type, token, profile_id, created_time) VALUES (?, ?, 'default', ?, 'profile-1', 1)");
    for (const n of [1, 2]) insert.run(`d${n}`, `old-${n}`, `T${n}`);
    migrate(db, 'profile-1', 1);
    const rows = db.prepare('SELECT credentials_uuid AS uuid, credentials_version AS version FROM devices ORDER BY id').all() as { uuid: string }[];
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(rows).toEqual([{ uuid: expect.stringMatching(v4), version: 1 }, { uuid: expect.stringMatching(v4), version: 1 }]);
    expect(rows[0].uuid).not.toBe(rows[1].uuid);
    db.close();
  });

  it('creates a device together with its credentials, and updates both', async () => {
    const res = await api('POST', '/api/device-with-credentials', {
      device: { name: 'with-creds', type: 'gateway' },
      credentials: { credentialsType: 'ACCESS_TOKEN', credentialsId: 'WITH-CREDS-1' },
    });
    expect(res.status).toBe(200);
    const device = res.json() as { id: { id: string } } & Record<string, unknown>;
    expect(device).toMatchObject({ name: 'with-creds', type: 'gateway' });
    expect((await call(server.httpUrl, 'POST', '/api/v1/WITH-CREDS-1/telemetry', { t: 1 })).status).toBe(200);
    const updated = await api('POST', '/api/device-with-credentials', {
      device: { ...device, label: 'relabelled' },
      credentials: { credentialsType: 'X509_CERTIFICATE', credentialsValue: 'CERT2' },
    });
    expect(updated.json()).toMatchObject({ id: device.id, label: 'relabelled' });
    expect((await api('GET', `/api/device/${device.id.id}/credentials`)).json()).toMatchObject({ credentialsType: 'X509_CERTIFICATE', credentialsId: sha3('CERT2') });
    const duplicate = await api('POST', '/api/device-with-credentials', {
      device: { name: 'with-creds-2' }, credentials: { credentialsType: 'X509_CERTIFICATE', credentialsValue: 'CERT2' },
    });
    expect(duplicate.status).toBe(400);
    expect(server.ctx.store.deviceByName('with-creds-2')).toBeUndefined();
  });
});

describe('devices by ids, the package count, and what dhi does not model', () => {
  it('answers the devices among the ids, and counts a profile\'s devices without a package of their own', async () => {
    const profile = ((await api('POST', '/api/deviceProfile', { name: 'count-profile' })).json() as { id: { id: string } }).id.id;
    const ref = { entityType: 'DEVICE_PROFILE', id: profile };
    const a = await newDeviceVia(api, { deviceProfileId: ref });
    const b = await newDeviceVia(api, { deviceProfileId: ref });
    const found = (await api('GET', `/api/devices?deviceIds=${a.id},${UNKNOWN_ID},${b.id}`)).json() as DeviceJson[];
    expect(found.map((d) => d.id.id)).toEqual([a.id, b.id]);
    expect((await api('GET', '/api/devices?deviceIds=x')).status).toBe(400);

    const count = async (type: string) => (await api('GET', `/api/devices/count/${type}/${profile}`)).json();
    expect(await count('FIRMWARE')).toBe(2);
    const fw = (await api('POST', '/api/otaPackage', { title: 'count-fw', version: '1', type: 'FIRMWARE', deviceProfileId: ref, url: 'https://example.com/fw' })).json() as { id: { id: string } };
    const device = (await api('GET', `/api/device/${a.id}`)).json() as object;
    expect((await api('POST', '/api/device', { ...device, firmwareId: { entityType: 'OTA_PACKAGE', id: fw.id.id } })).status).toBe(200);
    expect(await count('FIRMWARE')).toBe(1);
    expect(await count('SOFTWARE')).toBe(2);
  });

  it('answers 501 with ThingsBoard\'s error JSON naming what dhi leaves out', async () => {
    const device = await newDeviceVia(api);
    const calls: [string, string, string][] = [
      ['POST', `/api/edge/${UNKNOWN_ID}/device/${device.id}`, 'edges'],
      ['GET', `/api/edge/${UNKNOWN_ID}/devices`, 'edges'],
      ['POST', `/api/customer/public/device/${device.id}`, 'public customers'],
      ['POST', `/api/tenant/${UNKNOWN_ID}/device/${device.id}`, 'other tenants'],
      ['POST', '/api/devices', 'entity relations'],
      ['POST', '/api/device/bulk_import', 'bulk import'],
      ['POST', '/api/user/sendActivationMail?email=a@b.c', 'mail'],
    ];
    for (const [method, path, what] of calls) {
      const res = await api(method as 'GET', path);
      expect(res.status, path).toBe(501);
      expect(res.json(), path).toMatchObject({ status: 501, errorCode: 2, message: expect.stringContaining(`dhi does not model ${what}`) });
    }
  });
});
