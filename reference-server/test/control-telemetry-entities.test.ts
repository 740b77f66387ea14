// TelemetryController's paths with entity types other than DEVICE, over real sockets: what
// ThingsBoard's EntityIdFactory and AccessValidator answer a tenant admin, and dhi's 501 for the
// entities it has without telemetry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopTestServer, type TestServer } from './helpers.js';
import { newDeviceVia, startAdminServer, UNKNOWN_ID, type Api, type Method } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

const telemetry = (type: string, id: string) => `/api/plugins/telemetry/${type}/${id}`;

/** Every telemetry operation on one entity, with the AccessValidator operation it checks. */
const everyOperation = (type: string, id: string): [Method, string, object?][] => [
  ['GET', `${telemetry(type, id)}/values/timeseries?keys=t`],
  ['GET', `${telemetry(type, id)}/values/timeseries?keys=t&startTs=0&endTs=10&agg=AVG&interval=5`],
  ['GET', `${telemetry(type, id)}/values/timeseries/history?keys=t&startTs=0&endTs=10`],
  ['GET', `${telemetry(type, id)}/keys/timeseries`],
  ['GET', `${telemetry(type, id)}/keys/attributes`],
  ['GET', `${telemetry(type, id)}/keys/attributes/SERVER_SCOPE`],
  ['GET', `${telemetry(type, id)}/values/attributes`],
  ['GET', `${telemetry(type, id)}/values/attributes/SERVER_SCOPE`],
  ['POST', `${telemetry(type, id)}/attributes/SERVER_SCOPE`, { a: 1 }],
  ['POST', `${telemetry(type, id)}/SERVER_SCOPE`, { a: 1 }],
  ['DELETE', `${telemetry(type, id)}/SERVER_SCOPE?keys=a`],
  ['POST', `${telemetry(type, id)}/timeseries/ANY`, { t: 1 }],
  ['POST', `${telemetry(type, id)}/timeseries/ANY/60`, { t: 1 }],
  ['DELETE', `${telemetry(type, id)}/timeseries/delete?keys=t&deleteAllDataForKeys=true`],
];
const READS_TELEMETRY = 4;

async function expectEvery(type: string, id: string, status: number, body: (res: { text: string; json: () => unknown }) => void): Promise<void> {
  for (const [method, path, json] of everyOperation(type, id)) {
    const res = await api(method, path, json);
    expect(res.status, `${method} ${path}`).toBe(status);
    body(res);
  }
}

describe('entities dhi does not have', () => {
  it('answers AccessValidator\'s 404 text for assets, edges, entity views, rule chains, resources and the tenant', async () => {
    const texts: Record<string, string> = {
      ASSET: "Asset with requested id wasn't found!",
      ASSET_PROFILE: "Asset profile with requested id wasn't found!",
      RULE_CHAIN: "Rule chain with requested id wasn't found!",
      ENTITY_VIEW: "Entity-view with requested id wasn't found!",
      EDGE: "Edge with requested id wasn't found!",
      TB_RESOURCE: "Resource with requested id wasn't found!",
      TENANT: "Tenant with requested id wasn't found!",
    };
    for (const [type, text] of Object.entries(texts)) {
      await expectEvery(type, UNKNOWN_ID, 404, (res) => expect(res.text).toBe(text));
    }
  });

  it('lets an API usage state be read as time series only (403 otherwise), refuses tenant profiles, and answers Not Implemented for types AccessValidator lacks', async () => {
    const operations = everyOperation('API_USAGE_STATE', UNKNOWN_ID);
    for (const [i, [method, path, json]] of operations.entries()) {
      const res = await api(method, path, json);
      if (i < READS_TELEMETRY) expect(res.text, path).toBe("Api Usage State with requested id wasn't found!");
      else expect(res.json(), path).toMatchObject({ status: 403, errorCode: 20, message: 'Allowed only READ_TELEMETRY operation!' });
    }
    await expectEvery('TENANT_PROFILE', UNKNOWN_ID, 403, (res) =>
      expect(res.json()).toMatchObject({ errorCode: 20, message: 'Only system administrator is allowed to perform this operation!' }));
    for (const type of ['DASHBOARD', 'ALARM', 'WIDGET_TYPE', 'NOTIFICATION', 'API_KEY']) {
      await expectEvery(type, UNKNOWN_ID, 501, (res) => expect(res.json()).toMatchObject({ status: 501, errorCode: 2, message: 'Not Implemented!' }));
    }
  });
});

describe('entities dhi has without telemetry', () => {
  it('answers 501 naming what is left out for a customer, user, device profile, OTA package or RPC that exists, 404 for one that does not', async () => {
    const customer = (await api('POST', '/api/customer', { title: `telemetry-${process.pid}` })).json() as { id: { id: string } };
    const me = (await api('GET', '/api/auth/user')).json() as { id: { id: string } };
    const profile = (await api('GET', '/api/deviceProfileInfo/default')).json() as { id: { id: string } };
    const ota = (await api('POST', '/api/otaPackage', { title: 'entities', version: '1', type: 'FIRMWARE' })).json() as { id: { id: string } };
    const device = await newDeviceVia(api);
    const rpc = (await api('POST', `/api/rpc/oneway/${device.id}`, { method: 'm', params: {}, persistent: true })).json() as { rpcId: string };
    const existing: [string, string, string][] = [
      ['CUSTOMER', customer.id.id, 'customers'], ['USER', me.id.id, 'users'], ['DEVICE_PROFILE', profile.id.id, 'device profiles'],
      ['OTA_PACKAGE', ota.id.id, 'OTA packages'], ['RPC', rpc.rpcId, 'RPC requests'],
    ];
    for (const [type, id, what] of existing) {
      await expectEvery(type, id, 501, (res) =>
        expect(res.json()).toMatchObject({ status: 501, errorCode: 2, message: `dhi does not model telemetry and attributes of ${what}: only devices have them` }));
    }
    const missing: Record<string, string> = {
      CUSTOMER: "Customer with requested id wasn't found!", USER: "User with requested id wasn't found!",
      DEVICE_PROFILE: "Device profile with requested id wasn't found!", OTA_PACKAGE: "OtaPackage with requested id wasn't found!",
      RPC: "Rpc with requested id wasn't found!",
    };
    for (const [type, text] of Object.entries(missing)) await expectEvery(type, UNKNOWN_ID, 404, (res) => expect(res.text).toBe(text));
  });
});

describe('reading the type and the id', () => {
  it('refuses an unknown type with Java\'s enum message before looking at the id', async () => {
    for (const type of ['FOO', 'device', 'Device']) {
      const res = await api('GET', `${telemetry(type, 'not-a-uuid')}/keys/timeseries`);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 31, message: `No enum constant org.thingsboard.server.common.data.EntityType.${type}` });
    }
  });

  it('reads the id as UUID.fromString does: its messages, and an upper-case or unpadded id naming the same entity', async () => {
    const bad: [string, string][] = [
      ['abc', 'Invalid UUID string: abc'],
      ['1-2-3-4', 'Invalid UUID string: 1-2-3-4'],
      [`${UNKNOWN_ID}0`, 'UUID string too large'],
      ['zz-1-1-1-1', 'Error at index 0 in: "zz"'],
      ['1-1--1-1', ''],
      ['1-1-1-1-1-1', 'Invalid UUID string: 1-1-1-1-1-1'],
    ];
    for (const [id, message] of bad) {
      const res = await api('GET', `${telemetry('DEVICE', id)}/keys/timeseries`);
      expect(res.json(), id).toMatchObject({ status: 400, errorCode: 31, message });
    }
    const device = await newDeviceVia(api);
    await api('POST', `${telemetry('DEVICE', device.id)}/timeseries/ANY`, { t: 1 });
    expect((await api('GET', `${telemetry('DEVICE', device.id.toUpperCase())}/keys/timeseries`)).json()).toEqual(['t']);
    expect((await api('GET', `${telemetry('DEVICE', '1-1-1-1-1')}/keys/timeseries`)).text).toBe("Device with requested id wasn't found!");
    // The form without an entity type reads its device id the same way.
    expect((await api('POST', '/api/plugins/telemetry/abc/SHARED_SCOPE', { a: 1 })).json()).toMatchObject({ status: 400, message: 'Invalid UUID string: abc' });
  });

  it('checks the request before the entity, as ThingsBoard does: bodies, keys and agg first', async () => {
    expect((await api('POST', `${telemetry('ASSET', UNKNOWN_ID)}/timeseries/ANY`, {})).json())
      .toMatchObject({ status: 400, message: 'No time series data found in request body!' });
    expect((await api('POST', `${telemetry('DEVICE', UNKNOWN_ID)}/attributes/SERVER_SCOPE`, {})).json())
      .toMatchObject({ status: 400, message: 'No attributes data found in request body!' });
    expect((await api('DELETE', `${telemetry('CUSTOMER', UNKNOWN_ID)}/SERVER_SCOPE`)).json()).toMatchObject({ status: 400, message: 'Empty keys: []' });
    expect((await api('GET', `${telemetry('ASSET', UNKNOWN_ID)}/values/timeseries?keys=t&startTs=0&endTs=1&agg=MEAN`)).json())
      .toMatchObject({ status: 400, message: 'No enum constant org.thingsboard.server.common.data.kv.Aggregation.MEAN' });
    // The interval is checked after the entity (BaseTimeseriesService runs once access is granted).
    expect((await api('GET', `${telemetry('ASSET', UNKNOWN_ID)}/values/timeseries/history?keys=t&startTs=0&endTs=1&agg=AVG&interval=-1`)).status).toBe(404);
  });
});
