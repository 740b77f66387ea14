// ThingsBoard's API-client tests for OTA packages, customers, users, API keys and the device parts of
// ClientDocsExampleTest, call for call over HTTP against `dhi serve` (see java-client.ts and
// java-api-client-devices.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from './helpers.js';
import {
  activateUser, ApiException, expect404, javaClient, setUpJavaClient, TENANT_ADMIN_USERNAME, TEST_PASSWORD, TEST_PREFIX, TEST_PREFIX_2,
  type Entity, type Id, type JavaClient, type Page,
} from './java-client.js';

let server: TestServer;
let client: JavaClient;
let clientTenantAdmin: Entity;
let tenantId: Id;

beforeEach(async () => {
  server = await startTestServer();
  ({ client, clientTenantAdmin, tenantId } = await setUpJavaClient(server.httpUrl));
});
afterEach(() => stopTestServer(server));

describe('OtaPackageApiClientTest', () => {
  const OTA_PREFIX = 'OtaTest_';
  const defaultProfileId = async () => (await client.get('/api/deviceProfileInfo/default') as Entity).id;
  const saveInfo = async (title: string, version: string, type: string, url?: string) =>
    await client.post('/api/otaPackage', { title, type, url, version, deviceProfileId: await defaultProfileId() }) as Entity;
  const createFirmwareInfo = (suffix: string) => saveInfo(OTA_PREFIX + suffix, `1.0.${Date.now()}`, 'FIRMWARE');
  const createFirmwareWithUrl = (suffix: string) => saveInfo(OTA_PREFIX + suffix, `1.0.${Date.now()}.${Math.random()}`, 'FIRMWARE', 'https://example.com/firmware.bin');

  it('testSaveAndGetOtaPackageInfo, testGetOtaPackageById, testSaveOtaPackageInfoForSoftware', async () => {
    const ts = Date.now();
    const saved = await saveInfo(`${OTA_PREFIX}save_${ts}`, `1.0.${ts}`, 'FIRMWARE', 'https://example.com/fw.bin');
    expect(saved).toMatchObject({ title: `${OTA_PREFIX}save_${ts}`, version: `1.0.${ts}`, type: 'FIRMWARE' });
    expect(saved.url).toContain('example.com');
    expect(await client.get(`/api/otaPackage/info/${saved.id.id}`)).toMatchObject({ title: saved.title, version: saved.version });
    const withUrl = await createFirmwareWithUrl(`getbyid_${ts}`);
    expect(await client.get(`/api/otaPackage/${withUrl.id.id}`)).toMatchObject({ title: withUrl.title, version: withUrl.version });
    const software = await saveInfo(`${OTA_PREFIX}sw_${ts}`, `2.0.${ts}`, 'SOFTWARE', 'https://example.com/sw.bin');
    expect(software).toMatchObject({ type: 'SOFTWARE', title: `${OTA_PREFIX}sw_${ts}` });
  });

  it('testSaveOtaPackageData and testDownloadOtaPackage', async () => {
    const ts = Date.now();
    const info = await createFirmwareInfo(`data_${ts}`);
    const updated = await client.postFile(`/api/otaPackage/${info.id.id}`, Buffer.from(`test firmware content ${ts}`), 'ota_test_.bin', { checksumAlgorithm: 'MD5' }) as Entity;
    expect(updated).toMatchObject({ hasData: true, checksumAlgorithm: 'MD5' });
    expect(updated.fileName).toBeTruthy();
    expect(updated.dataSize).toBeGreaterThan(0);
    const download = await createFirmwareInfo(`download_${ts}`);
    const content = `downloadable firmware ${ts}`;
    await client.postFile(`/api/otaPackage/${download.id.id}`, Buffer.from(content), 'ota_dl_.bin', { checksumAlgorithm: 'MD5' });
    expect((await client.download(`/api/otaPackage/${download.id.id}/download`)).toString()).toBe(content);
  });

  it('testDeleteOtaPackage and testGetOtaPackageInfoById_notFound', async () => {
    const saved = await createFirmwareWithUrl(`delete_${Date.now()}`);
    await client.get(`/api/otaPackage/info/${saved.id.id}`);
    await client.delete(`/api/otaPackage/${saved.id.id}`);
    await expect404(() => client.get(`/api/otaPackage/info/${saved.id.id}`));
    await expect404(() => client.get(`/api/otaPackage/info/${crypto.randomUUID()}`));
  });

  it('testGetOtaPackages, testGetOtaPackagesByDeviceProfileAndType, testGetOtaPackagesPagination', async () => {
    const ts = Date.now();
    for (let i = 0; i < 3; i++) await createFirmwareWithUrl(`list_${ts}_${i}`);
    const page = await client.get('/api/otaPackages', { pageSize: 100, page: 0, textSearch: `${OTA_PREFIX}list_${ts}` }) as Page;
    expect(page.totalElements).toBe(3);
    for (const pkg of page.data) expect(String(pkg.title).startsWith(`${OTA_PREFIX}list_${ts}`)).toBe(true);
    await createFirmwareWithUrl(`byprofile_${ts}_0`);
    await createFirmwareWithUrl(`byprofile_${ts}_1`);
    const byProfile = await client.get(`/api/otaPackages/${(await defaultProfileId()).id}/FIRMWARE`, { pageSize: 100, page: 0, textSearch: `${OTA_PREFIX}byprofile_${ts}` }) as Page;
    expect(byProfile.totalElements).toBe(2);
    for (let i = 0; i < 5; i++) await createFirmwareWithUrl(`paged_${ts}_${i}`);
    const page1 = await client.get('/api/otaPackages', { pageSize: 2, page: 0, textSearch: `${OTA_PREFIX}paged_${ts}` }) as Page;
    expect(page1).toMatchObject({ totalElements: 5, totalPages: 3, hasNext: true });
    expect(page1.data).toHaveLength(2);
    const lastPage = await client.get('/api/otaPackages', { pageSize: 2, page: 2, textSearch: `${OTA_PREFIX}paged_${ts}` }) as Page;
    expect(lastPage.data).toHaveLength(1);
    expect(lastPage.hasNext).toBe(false);
  });

  it('testUpdateOtaPackageInfo', async () => {
    const saved = await createFirmwareWithUrl(`update_${Date.now()}`);
    const updated = await client.post('/api/otaPackage', {
      id: saved.id, title: saved.title, type: saved.type, version: saved.version, deviceProfileId: saved.deviceProfileId, url: saved.url,
      additionalInfo: { infoKey: 'infoValue' },
    }) as Entity;
    expect(updated.id.id).toBe(saved.id.id);
    expect((updated.additionalInfo as Record<string, string>).infoKey).toBe('infoValue');
  });
});

describe('CustomerApiClientTest', () => {
  it('testCustomerLifecycle', async () => {
    const timestamp = Date.now();
    const createdCustomers: Entity[] = [];
    for (let i = 0; i < 20; i++) {
      const customerTitle = `${i % 2 === 0 ? TEST_PREFIX : TEST_PREFIX_2}${timestamp}_${i}`;
      const created = await client.post('/api/customer', { title: customerTitle, email: `customer_${timestamp}_${i}@test.com` }) as Entity;
      expect(created.title).toBe(customerTitle);
      createdCustomers.push(created);
    }
    const initialSize = (await client.get('/api/customers', { pageSize: 100, page: 0 }) as Page).data.length;
    expect(initialSize).toBe(21);
    expect((await client.get('/api/customers', { pageSize: 100, page: 0, textSearch: TEST_PREFIX_2 }) as Page).data).toHaveLength(10);
    const searchCustomer = createdCustomers[10];
    const fetchedCustomer = await client.get(`/api/customer/${searchCustomer.id.id}`) as Entity;
    expect(fetchedCustomer.title).toBe(searchCustomer.title);
    expect(((await client.get('/api/tenant/customers', { customerTitle: String(searchCustomer.title) })) as Entity).id.id).toBe(searchCustomer.id.id);
    const updatedCustomer = await client.post('/api/customer', { ...fetchedCustomer, city: 'New York', country: 'US' }) as Entity;
    expect(updatedCustomer).toMatchObject({ city: 'New York', country: 'US' });
    const createdDevice = await client.post('/api/device', { name: `CustomerTestDevice_${timestamp}`, type: 'default' }) as Entity;
    const customerId = createdCustomers[0].id.id;
    await client.post(`/api/customer/${customerId}/device/${createdDevice.id.id}`);
    const customerDevices = await client.get(`/api/customer/${customerId}/devices`, { pageSize: 100, page: 0 }) as Page;
    expect(customerDevices.data.map((d) => d.name)).toEqual([createdDevice.name]);
    await client.delete(`/api/customer/device/${createdDevice.id.id}`);
    expect((await client.get(`/api/customer/${customerId}/devices`, { pageSize: 100, page: 0 }) as Page).data).toHaveLength(0);
    await client.delete(`/api/customer/${customerId}`);
    expect((await client.get('/api/customers', { pageSize: 100, page: 0 }) as Page).data).toHaveLength(initialSize - 1);
    await expect404(() => client.get(`/api/customer/${customerId}`));
  });
});

describe('UserApiClientTest', () => {
  it('testUserLifecycle', async () => {
    const timestamp = Date.now();
    const createdUsers: Entity[] = [];
    for (let i = 0; i < 20; i++) {
      const email = `${i % 2 === 0 ? TEST_PREFIX : TEST_PREFIX_2}${timestamp}_${i}@test.com`;
      const created = await client.post('/api/user', { email, authority: 'TENANT_ADMIN', tenantId, firstName: `First${i}`, lastName: `Last${i}` }, { sendActivationMail: 'false' }) as Entity;
      expect(created).toMatchObject({ email, authority: 'TENANT_ADMIN' });
      createdUsers.push(created);
    }
    const initialSize = (await client.get('/api/users', { pageSize: 100, page: 0 }) as Page).data.length;
    expect(initialSize).toBe(22);
    expect((await client.get('/api/users', { pageSize: 100, page: 0, textSearch: TEST_PREFIX_2 }) as Page).data).toHaveLength(10);
    const fetchedUser = await client.get(`/api/user/${createdUsers[10].id.id}`) as Entity;
    expect(fetchedUser).toMatchObject({ email: createdUsers[10].email, firstName: createdUsers[10].firstName });
    const updatedUser = await client.post('/api/user', { ...fetchedUser, firstName: 'UpdatedFirst', lastName: 'UpdatedLast' }, { sendActivationMail: 'false' }) as Entity;
    expect(updatedUser).toMatchObject({ firstName: 'UpdatedFirst', lastName: 'UpdatedLast' });
    await activateUser(client, createdUsers[0].id, TEST_PASSWORD, false);
    expect((await client.get(`/api/user/${createdUsers[0].id.id}/token`) as { token: string }).token).toBeTruthy();
    await client.post(`/api/user/${createdUsers[0].id.id}/userCredentialsEnabled`, undefined, { userCredentialsEnabled: 'false' });
    await client.post(`/api/user/${createdUsers[0].id.id}/userCredentialsEnabled`, undefined, { userCredentialsEnabled: 'true' });
    const customer2 = await client.post('/api/customer', { title: `User test customer ${timestamp}`, email: `usertest_${timestamp}@test.com` }) as Entity;
    for (let i = 0; i < 5; i++) {
      const created = await client.post('/api/user', {
        email: `custuser_${timestamp}_${i}@test.com`, authority: 'CUSTOMER_USER', tenantId, customerId: customer2.id, firstName: `CustFirst${i}`, lastName: `CustLast${i}`,
      }, { sendActivationMail: 'false' });
      expect(created).toBeDefined();
    }
    expect((await client.get(`/api/customer/${customer2.id.id}/users`, { pageSize: 100, page: 0 }) as Page).data).toHaveLength(5);
    const userToDeleteId = createdUsers[0].id.id;
    await client.delete(`/api/user/${userToDeleteId}`);
    expect((await client.get('/api/users', { pageSize: 100, page: 0 }) as Page).data).toHaveLength(initialSize + 5 - 1);
    await expect404(() => client.get(`/api/user/${userToDeleteId}`));
  });
});

describe('ApiKeyApiClientTest', () => {
  const saveApiKey = (description: string, enabled?: boolean) =>
    client.post('/api/apiKey', { description, userId: clientTenantAdmin.id, enabled }) as Promise<Entity & { value: string }>;
  const userApiKeys = (pageSize: number) => client.get(`/api/apiKeys/${clientTenantAdmin.id.id}`, { pageSize, page: 0 }) as Promise<Page>;

  it('testApiKeyLifecycle', async () => {
    const created = await saveApiKey('Test API key', true);
    expect(created.value.trim()).not.toBe('');
    expect(created.description).toBe('Test API key');
    expect((await userApiKeys(100)).data.some((k) => k.id.id === created.id.id)).toBe(true);
    await client.delete(`/api/apiKey/${created.id.id}`);
    expect((await userApiKeys(100)).data.every((k) => k.id.id !== created.id.id)).toBe(true);
  });

  it('testEnableDisableApiKey', async () => {
    const created = await saveApiKey('Enable/disable test key', true);
    expect((await client.put(`/api/apiKey/${created.id.id}/enabled/false`) as Entity).enabled).toBe(false);
    expect((await client.put(`/api/apiKey/${created.id.id}/enabled/true`) as Entity).enabled).toBe(true);
    await client.delete(`/api/apiKey/${created.id.id}`);
  });

  it('testGetUserApiKeys', async () => {
    const initialCount = (await userApiKeys(100)).data.length;
    const createdIds: string[] = [];
    for (let i = 0; i < 3; i++) createdIds.push((await saveApiKey(`Paging test key ${i}`)).id.id);
    const afterCreate = await userApiKeys(100);
    expect(afterCreate.data).toHaveLength(initialCount + 3);
    expect(afterCreate.totalElements).toBe(initialCount + 3);
    const page1 = await userApiKeys(2);
    expect(page1.data).toHaveLength(2);
    expect(page1.hasNext).toBe(true);
    for (const id of createdIds) await client.delete(`/api/apiKey/${id}`);
  });
});

describe('ClientDocsExampleTest (device parts)', () => {
  const apiKeyValue = async () =>
    (await client.post('/api/apiKey', { description: 'ClientDocsExampleTest', userId: clientTenantAdmin.id, enabled: true }) as { value: string }).value;

  it('testQuickstart', async () => {
    const keyed = javaClient(server.httpUrl, await apiKeyValue());
    const savedDevice = await keyed.post('/api/device', { name: 'Quickstart Device', type: 'default' }) as Entity;
    const deviceId = savedDevice.id.id;
    await keyed.postText(`/api/plugins/telemetry/DEVICE/${deviceId}/timeseries/ANY`, '{"temperature": 22.4}\n');
    expect(savedDevice.name).toBe('Quickstart Device');
    await keyed.delete(`/api/device/${deviceId}`);
    await expect404(() => keyed.get(`/api/device/${deviceId}`));
  });

  it('testAuthenticationViaApiKey and testRateLimitHandlingBuilderOptions', async () => {
    expect((await javaClient(server.httpUrl, await apiKeyValue()).get('/api/auth/user') as Entity).email).toBe(TENANT_ADMIN_USERNAME);
  });

  it('testAuthenticationViaCredentials', async () => {
    const credentials = javaClient(server.httpUrl);
    await credentials.login(TENANT_ADMIN_USERNAME, TEST_PASSWORD);
    expect((await credentials.get('/api/auth/user') as Entity).email).toBe(TENANT_ADMIN_USERNAME);
  });

  it('testWorkingWithEntities', async () => {
    const savedDevice = await client.post('/api/device', { name: 'Test Device', type: 'default' }) as Entity;
    expect((await client.get(`/api/device/${savedDevice.id.id}`) as Entity).name).toBe('Test Device');
    await client.delete(`/api/device/${savedDevice.id.id}`);
    await expect404(() => client.get(`/api/device/${savedDevice.id.id}`));
  });

  it('testPushTelemetry', async () => {
    const deviceId = (await client.post('/api/device', { name: 'Telemetry Setup Device', type: 'default' }) as Entity).id.id;
    await client.postText(`/api/plugins/telemetry/DEVICE/${deviceId}/timeseries/ANY`, '{"temperature": 26.5, "humidity": 87}\n');
    const latest = await client.get(`/api/plugins/telemetry/DEVICE/${deviceId}/values/timeseries`, { keys: 'temperature,humidity', useStrictDataTypes: false }) as Record<string, { value: unknown }[]>;
    expect(String(latest.temperature[0].value)).toBe('26.5');
    expect(String(latest.humidity[0].value)).toBe('87');
  });

  it('testPaginatedTenantList', async () => {
    for (let i = 0; i < 5; i++) await client.post('/api/device', { name: `Page Setup Device ${i}`, type: 'default' });
    let page = 0;
    let devices: Page;
    do {
      devices = await client.get('/api/tenant/devices', { pageSize: 100, page }) as Page;
      for (const d of devices.data) expect(d.type).toBe('default');
      page++;
    } while (devices.hasNext);
    expect(devices.totalElements).toBe(5);
  });

  it('testErrorHandling404', async () => {
    let caught404 = false;
    try {
      await client.get(`/api/device/${crypto.randomUUID()}`);
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) caught404 = true;
      else throw error;
    }
    expect(caught404).toBe(true);
  });
});
