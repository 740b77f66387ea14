// ThingsBoard's own API-client tests for the device half (application/src/test/java/org/thingsboard/
// server/client/: Device, DeviceProfile, DeviceConnectivity, Telemetry, RpcV1, RpcV2, OtaPackage,
// Customer, User, ApiKey and the device parts of ClientDocsExample), call for call over HTTP against
// `dhi serve` (java-client.ts reproduces the Java client's requests), with their assertions. Each
// test gets a fresh server, as each of ThingsBoard's gets a fresh tenant. The set-up is
// AbstractApiClientTest's from the tenant admin on: ThingsBoard's sysadmin creates a tenant, dhi has
// its one tenant, whose default admin the new admin removes so that the tenant holds what
// ThingsBoard's fresh one does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from './helpers.js';
import { expect404, setUpJavaClient, ApiException, TEST_PREFIX, TEST_PREFIX_2, type Entity, type JavaClient, type Page } from './java-client.js';

let server: TestServer;
let client: JavaClient;
let savedClientCustomer: Entity;

beforeEach(async () => {
  server = await startTestServer();
  ({ client, savedClientCustomer } = await setUpJavaClient(server.httpUrl));
});
afterEach(() => stopTestServer(server));

const saveDevice = (device: object) => client.post('/api/device', device) as Promise<Entity>;
const tenantDevices = (pageSize: number, page: number, textSearch?: string) => client.get('/api/tenant/devices', { pageSize, page, textSearch }) as Promise<Page>;

describe('DeviceApiClientTest', () => {
  it('testDeviceLifecycle', async () => {
    const timestamp = Date.now();
    const createdDevices: Entity[] = [];
    for (let i = 0; i < 20; i++) {
      const deviceName = `${i % 2 === 0 ? TEST_PREFIX : TEST_PREFIX_2}${timestamp}_${i}`;
      const created = await saveDevice({ name: deviceName, label: `Test Device ${i}`, type: i % 2 === 0 ? 'default' : 'thermostat' });
      expect(created.id).toBeDefined();
      expect(created.name).toBe(deviceName);
      createdDevices.push(created);
    }
    const initialSize = (await tenantDevices(100, 0)).data.length;
    expect(initialSize).toBe(20);
    expect((await tenantDevices(10, 0, TEST_PREFIX_2)).data).toHaveLength(10);
    const searchDevice = createdDevices[10];
    expect(((await client.get(`/api/device/${searchDevice.id.id}`)) as Entity).name).toBe(searchDevice.name);
    const savedDeviceWithCreds = await client.post('/api/device-with-credentials', {
      device: { name: 'device-with-creds' }, credentials: { credentialsType: 'ACCESS_TOKEN', credentialsId: 'TEST_ACCESS_TOKEN' },
    }) as Entity;
    expect(savedDeviceWithCreds.name).toBe('device-with-creds');
    expect(((await client.get(`/api/device/${savedDeviceWithCreds.id.id}/credentials`)) as Entity).credentialsId).toBe('TEST_ACCESS_TOKEN');
    const deviceToDeleteId = createdDevices[0].id.id;
    await client.delete(`/api/device/${deviceToDeleteId}`);
    expect((await tenantDevices(100, 0)).data).toHaveLength(initialSize);
    await expect404(() => client.get(`/api/device/${deviceToDeleteId}`));
    await client.post(`/api/customer/${savedClientCustomer.id.id}/device/${savedDeviceWithCreds.id.id}`);
    const customerDevices = await client.get(`/api/customer/${savedClientCustomer.id.id}/devices`, { pageSize: 100, page: 0 }) as Page;
    expect(customerDevices.data).toHaveLength(1);
    expect(customerDevices.data[0].name).toBe(savedDeviceWithCreds.name);
  });
});

describe('DeviceProfileApiClientTest', () => {
  it('testDeviceProfileLifecycle', async () => {
    const timestamp = Date.now();
    const initialProfiles = await client.get('/api/deviceProfiles', { pageSize: 100, page: 0 }) as Page;
    const initialSize = initialProfiles.data.length;
    expect(initialSize).toBeGreaterThanOrEqual(1);
    expect((await client.get('/api/deviceProfileInfo/default') as Entity).name).toBeDefined();
    const createdProfiles: Entity[] = [];
    for (let i = 0; i < 5; i++) {
      const deviceProfile = {
        name: `Test Device Profile ${timestamp}_${i}`, description: `Test description ${i}`, type: 'DEFAULT', transportType: 'DEFAULT',
        profileData: { configuration: { type: 'DEFAULT' }, transportConfiguration: { type: 'DEFAULT' } }, default: false, defaultRuleChainId: null,
      };
      const created = await client.post('/api/deviceProfile', deviceProfile) as Entity;
      expect(created).toMatchObject({ name: deviceProfile.name, description: deviceProfile.description, type: 'DEFAULT', transportType: 'DEFAULT', default: false });
      createdProfiles.push(created);
    }
    expect((await client.get('/api/deviceProfiles', { pageSize: 100, page: 0 }) as Page).data).toHaveLength(initialSize + 5);
    expect((await client.get('/api/deviceProfiles', { pageSize: 100, page: 0, textSearch: `Test Device Profile ${timestamp}` }) as Page).data).toHaveLength(5);
    const searchProfile = createdProfiles[2];
    const fetchedProfile = await client.get(`/api/deviceProfile/${searchProfile.id.id}`, { inlineImages: false }) as Entity;
    expect(fetchedProfile).toMatchObject({ name: searchProfile.name, description: searchProfile.description });
    const updatedProfile = await client.post('/api/deviceProfile', { ...fetchedProfile, description: 'Updated description' }) as Entity;
    expect(updatedProfile).toMatchObject({ description: 'Updated description', name: fetchedProfile.name });
    const profileInfo = await client.get('/api/deviceProfileInfo/default') as Entity;
    expect(profileInfo).toMatchObject({ name: 'default', transportType: 'DEFAULT' });
    expect((await client.get('/api/deviceProfileInfos', { pageSize: 100, page: 0 }) as Page).data).toHaveLength(initialSize + 5);
    const newDefault = await client.post(`/api/deviceProfile/${createdProfiles[1].id.id}/default`) as Entity;
    expect(newDefault.default).toBe(true);
    expect((await client.get('/api/deviceProfileInfo/default') as Entity).name).toBe(createdProfiles[1].name);
    expect(await client.get('/api/deviceProfile/names', { activeOnly: false })).toHaveLength(createdProfiles.length + 1);
    const profileToDeleteId = createdProfiles[0].id.id;
    await client.delete(`/api/deviceProfile/${profileToDeleteId}`);
    await expect404(() => client.get(`/api/deviceProfile/${profileToDeleteId}`, { inlineImages: false }));
    expect((await client.get('/api/deviceProfiles', { pageSize: 100, page: 0 }) as Page).data).toHaveLength(initialSize + 4);
    const originalDefault = initialProfiles.data.find((p) => p.default)!;
    await client.post(`/api/deviceProfile/${originalDefault.id.id}/default`);
  });
});

describe('DeviceConnectivityApiClientTest', () => {
  it('testGetDevicePublishTelemetryCommands', async () => {
    const savedDevice = await saveDevice({ name: `${TEST_PREFIX}${Date.now()}`, type: 'default' });
    const token = (await client.get(`/api/device/${savedDevice.id.id}/credentials`) as Entity).credentialsId;
    const commands = await client.get(`/api/device-connectivity/${savedDevice.id.id}`) as Record<string, Record<string, string>>;
    // ThingsBoard's test server publishes its configured port (8080); dhi its own listener's. MQTT and
    // CoAP are absent: dhi has neither transport (the departure).
    expect(commands.http.http).toBe(`curl -v -X POST http://127.0.0.1:${new URL(server.httpUrl).port}/api/v1/${token}/telemetry --header Content-Type:application/json --data "{temperature:25}"`);
    expect(commands).not.toHaveProperty('mqtt');
    expect(commands).not.toHaveProperty('coap');
  });

  it('testGetDevicePublishTelemetryCommands_nonExistentDevice', async () => {
    await expect404(() => client.get(`/api/device-connectivity/${crypto.randomUUID()}`));
  });
});

describe('TelemetryApiClientTest', () => {
  it('testTelemetryLifecycle', async () => {
    const timestamp = Date.now();
    const createdDevice = await saveDevice({ name: `TelemetryTestDevice_${timestamp}`, type: 'default' });
    const entityId = createdDevice.id.id;
    const base = `/api/plugins/telemetry/DEVICE/${entityId}`;
    await client.postText(`${base}/attributes/SERVER_SCOPE`, '{"serverAttr1": "value1", "serverAttr2": 42}');
    await client.postText(`${base}/attributes/SHARED_SCOPE`, '{"sharedAttr1": "sharedValue1", "sharedAttr2": true}');
    expect(await client.get(`${base}/keys/attributes`)).toEqual(expect.arrayContaining(['serverAttr1', 'serverAttr2', 'sharedAttr1', 'sharedAttr2']));
    const serverKeys = await client.get(`${base}/keys/attributes/SERVER_SCOPE`) as string[];
    // "active attribute is automatically added to server scope"
    expect(serverKeys).toHaveLength(2 + 1);
    expect(serverKeys).toEqual(expect.arrayContaining(['serverAttr1', 'serverAttr2', 'active']));
    expect(await client.get(`${base}/values/attributes/SERVER_SCOPE`, { keys: 'serverAttr1,serverAttr2' })).toHaveLength(2);
    const allAttrs = await client.get(`${base}/values/attributes`, { keys: 'serverAttr1,sharedAttr1' }) as { key: string; value: unknown }[];
    expect(allAttrs).toHaveLength(2);
    expect(String(allAttrs.find((a) => a.key === 'serverAttr1')!.value)).toBe('value1');
    expect(String(allAttrs.find((a) => a.key === 'sharedAttr1')!.value)).toBe('sharedValue1');

    const [ts1, ts2, ts3] = [timestamp - 60000, timestamp - 30000, timestamp];
    await client.postText(`${base}/timeseries/ANY`, `{"ts":${ts1},"values":{"temperature":25.5,"humidity":60}}`);
    await client.postText(`${base}/timeseries/ANY`, `{"ts":${ts2},"values":{"temperature":26.0,"humidity":58}}`);
    await client.postText(`${base}/timeseries/ANY`, `{"ts":${ts3},"values":{"temperature":27.1,"humidity":55}}`);
    const tsKeys = await client.get(`${base}/keys/timeseries`) as string[];
    expect(tsKeys).toHaveLength(2);
    expect(tsKeys).toEqual(expect.arrayContaining(['humidity', 'temperature']));
    type Ts = Record<string, { ts: number; value: unknown }[]>;
    const latest = await client.get(`${base}/values/timeseries`, { keys: 'temperature,humidity', useStrictDataTypes: false }) as Ts;
    expect(String(latest.temperature[0].value)).toBe('27.1');
    const history = await client.get(`${base}/values/timeseries/history`, {
      keys: 'temperature', startTs: ts1 - 1000, endTs: ts3 + 1000, agg: 'NONE', orderBy: 'ASC', useStrictDataTypes: false,
    }) as Ts;
    expect(history.temperature).toHaveLength(3);
    expect(String(history.temperature[0].value)).toBe('25.5');
    expect(String(history.temperature[2].value)).toBe('27.1');
    await client.delete(`${base}/timeseries/delete`, { keys: 'humidity', deleteAllDataForKeys: true, deleteLatest: true, rewriteLatestIfDeleted: false });
    expect(await client.get(`${base}/keys/timeseries`)).not.toContain('humidity');
    await client.delete(`${base}/SERVER_SCOPE`, { keys: 'serverAttr1' });
    const afterDelete = await client.get(`${base}/keys/attributes/SERVER_SCOPE`) as string[];
    expect(afterDelete).not.toContain('serverAttr1');
    expect(afterDelete).toContain('serverAttr2');
    await client.postText(`/api/plugins/telemetry/${entityId}/SERVER_SCOPE`, '{"deviceSpecificAttr": "test"}');
    expect(await client.get(`${base}/keys/attributes/SERVER_SCOPE`)).toContain('deviceSpecificAttr');
    await client.delete(`/api/plugins/telemetry/${entityId}/SERVER_SCOPE`, { keys: 'deviceSpecificAttr' });
    expect(await client.get(`${base}/keys/attributes/SERVER_SCOPE`)).not.toContain('deviceSpecificAttr');
    await client.postText(`${base}/timeseries/ANY/86400`, `{"ts":${timestamp},"values":{"shortLived":99}}`);
    const withTtl = await client.get(`${base}/values/timeseries`, { keys: 'shortLived', useStrictDataTypes: false }) as Ts;
    expect(String(withTtl.shortLived[0].value)).toBe('99');
  });
});

/** The RPC tests' assertion: the call must not end in an ApiException. */
async function noApiException(call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    expect(error instanceof ApiException ? error.code : String(error), 'an unexpected HTTP error').toBe(0);
  }
}

describe('RpcV1ApiClientTest and RpcV2ApiClientTest', () => {
  const ONE_WAY_BODY = '{"method":"setGpio","params":{"pin":7,"value":1},"persistent":true}';
  const TWO_WAY_BODY = '{"method":"getGpio","params":{"pin":7},"persistent":true}';
  const newDevice = () => saveDevice({ name: `${TEST_PREFIX}${Date.now()}`, type: 'default' });

  for (const [version, prefix, twoWay] of [['V1', '/api/plugins/rpc', TWO_WAY_BODY], ['V2', '/api/rpc', ONE_WAY_BODY]] as const) {
    it(`testHandleOneWayDeviceRPCRequest (${version})`, async () => {
      const device = await newDevice();
      await noApiException(() => client.postText(`${prefix}/oneway/${device.id.id}`, ONE_WAY_BODY));
      await client.delete(`/api/device/${device.id.id}`);
    });

    it(`testHandleTwoWayDeviceRPCRequest (${version})`, async () => {
      const device = await newDevice();
      await noApiException(() => client.postText(`${prefix}/twoway/${device.id.id}`, twoWay));
      await client.delete(`/api/device/${device.id.id}`);
    });
  }

  /** postPersistentRpcAndGetId: a raw HttpClient POST with `Authorization: Bearer <token>`. */
  const postPersistentRpcAndGetId = async (deviceId: string) => {
    const res = await fetch(`${server.httpUrl}/api/plugins/rpc/oneway/${deviceId}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${client.token()}` }, body: ONE_WAY_BODY,
    });
    return ((await res.json()) as { rpcId: string }).rpcId;
  };

  it('testGetPersistedRpcAndDeleteRpc', async () => {
    const device = await newDevice();
    const rpcId = await postPersistentRpcAndGetId(device.id.id);
    expect(rpcId).toBeDefined();
    expect((await client.get(`/api/rpc/persistent/${rpcId}`) as Entity).id).toBeDefined();
    await client.delete(`/api/rpc/persistent/${rpcId}`);
    await expect404(() => client.get(`/api/rpc/persistent/${rpcId}`));
    await client.delete(`/api/device/${device.id.id}`);
  });

  it('testGetPersistedRpcNotFound', async () => {
    await expect404(() => client.get(`/api/rpc/persistent/${crypto.randomUUID()}`));
  });

  it('testGetPersistedRpcByDevice', async () => {
    const device = await newDevice();
    await postPersistentRpcAndGetId(device.id.id);
    await noApiException(() => client.get(`/api/rpc/persistent/device/${device.id.id}`, { pageSize: 100, page: 0 }));
    await client.delete(`/api/device/${device.id.id}`);
  });
});
