// Whole entities as ThingsBoard's Jackson binding reads and writes them: typed ids from `id` alone,
// unknown properties ignored, optional fields null, every field of the model kept and returned (or
// refused naming it), and the optimistic-lock version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopTestServer, type TestServer } from './helpers.js';
import { startAdminServer, type Api } from './control-helpers.js';
import { TENANT_ID } from '../control-api/entities.js';

type Entity = { id: { entityType: string; id: string }; version: number } & Record<string, unknown>;

let server: TestServer;
let api: Api;
const TENANT = { entityType: 'TENANT', id: TENANT_ID };

beforeAll(async () => {
  ({ server, api } = await startAdminServer());
});
afterAll(() => stopTestServer(server));

async function saved(path: string, body: object): Promise<Entity> {
  const res = await api('POST', path, body);
  expect(res.status, res.text).toBe(200);
  return res.json() as Entity;
}

describe('typed ids and ThingsBoard binding', () => {
  it('takes a typed id from `id` alone, ignores properties ThingsBoard does not have, and accepts null optional fields', async () => {
    const customer = await saved('/api/customer', { title: 'ids-customer' });
    const profile = await saved('/api/deviceProfile', { name: 'ids-profile' });
    const device = await saved('/api/device', {
      name: 'ids-device', customerId: { id: customer.id.id }, deviceProfileId: { id: profile.id.id },
      label: null, additionalInfo: null, firmwareId: null, externalId: null, version: null,
      tenantId: { id: '00000000-0000-4000-8000-000000000000' }, createdTime: 5, somethingElse: { nested: true },
    });
    expect(device).toMatchObject({
      customerId: { entityType: 'CUSTOMER', id: customer.id.id }, deviceProfileId: { entityType: 'DEVICE_PROFILE', id: profile.id.id },
      type: 'ids-profile', label: null, tenantId: TENANT, version: 1,
    });
    expect(device.createdTime).not.toBe(5);
    const read = (await api('GET', `/api/device/${device.id.id}`)).json();
    expect(read).toEqual(device);
    // An id without its uuid is still refused, naming the property.
    const bad = await api('POST', '/api/device', { name: 'ids-bad', customerId: { entityType: 'CUSTOMER' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('customerId');
  });
});

describe('every field of the model', () => {
  it('keeps a customer\'s contact fields, additionalInfo and externalId, and returns them', async () => {
    const fields = {
      country: 'US', state: 'NY', city: 'New York', address: '1 Main St', address2: 'Suite 2', zip: '10001',
      phone: '+1 555 0100', email: 'ops@example.com', additionalInfo: { description: 'a customer', n: 1.5 },
    };
    const customer = await saved('/api/customer', { title: 'contact-customer', ...fields, externalId: { id: 'b1f5a7e2-1111-4222-8333-444455556666' } });
    expect(customer).toMatchObject({ ...fields, title: 'contact-customer', name: 'contact-customer', tenantId: TENANT, externalId: { entityType: 'CUSTOMER' } });
    expect((await api('GET', `/api/customer/${customer.id.id}`)).json()).toEqual(customer);
    // A field set to null is cleared; one left out is kept.
    const next = await saved('/api/customer', { id: customer.id, title: 'contact-customer', city: null });
    expect(next).toMatchObject({ city: null, country: 'US', version: 2 });
  });

  it('keeps a user\'s phone and additionalInfo, and returns them with the tenant', async () => {
    const user = await saved('/api/user?sendActivationMail=false', {
      email: 'fields-user@example.com', authority: 'TENANT_ADMIN', firstName: 'Ada', lastName: null, phone: '+44 20 7946 0000',
      additionalInfo: { lang: 'en_US' }, tenantId: { id: '00000000-0000-4000-8000-000000000000', entityType: 'TENANT' },
    });
    expect(user).toMatchObject({ phone: '+44 20 7946 0000', additionalInfo: { lang: 'en_US' }, tenantId: TENANT, lastName: null, version: 1 });
    expect((await api('GET', `/api/user/${user.id.id}`)).json()).toMatchObject({ phone: '+44 20 7946 0000', additionalInfo: { lang: 'en_US' } });
  });

  it('keeps an OTA package\'s additionalInfo, and refuses a url package without its url', async () => {
    const ota = await saved('/api/otaPackage', { title: 'fields-fw', version: '1', type: 'FIRMWARE', url: 'https://example.com/fw.bin', usesUrl: true });
    const updated = await saved('/api/otaPackage', { ...ota, additionalInfo: { infoKey: 'infoValue' } });
    expect(updated).toMatchObject({ id: ota.id, additionalInfo: { infoKey: 'infoValue' }, name: 'fields-fw', tenantId: TENANT });
    expect((await api('GET', `/api/otaPackage/info/${ota.id.id}`)).json()).toMatchObject({ additionalInfo: { infoKey: 'infoValue' } });
    const missing = await api('POST', '/api/otaPackage', { title: 'fields-fw-2', version: '1', type: 'FIRMWARE', usesUrl: true });
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ message: 'Ota package URL should be specified!' });
  });

  it('keeps a device\'s deviceData and a profile\'s image, queue and transport configuration', async () => {
    const deviceData = { configuration: { type: 'DEFAULT' }, transportConfiguration: { type: 'MQTT' } };
    const device = await saved('/api/device', { name: 'fields-device', deviceData });
    expect(device.deviceData).toEqual(deviceData);
    expect((await saved('/api/device', { name: 'fields-device-2' })).deviceData).toEqual({ configuration: { type: 'DEFAULT' }, transportConfiguration: { type: 'DEFAULT' } });
    const transportConfiguration = { type: 'MQTT', deviceTelemetryTopic: 'v1/devices/me/telemetry' };
    const profile = await saved('/api/deviceProfile', {
      name: 'fields-profile', image: 'tb-image;/api/images/tenant/thermostat.svg', defaultQueueName: 'Main', transportType: 'MQTT',
      profileData: { configuration: { type: 'DEFAULT' }, transportConfiguration },
    });
    expect(profile).toMatchObject({ image: 'tb-image;/api/images/tenant/thermostat.svg', defaultQueueName: 'Main', transportType: 'MQTT', profileData: { transportConfiguration } });
    expect((await api('GET', `/api/deviceProfile/${profile.id.id}`)).json()).toEqual(profile);
  });

  it('refuses what dhi does not model, naming the property', async () => {
    const ref = { entityType: 'RULE_CHAIN', id: 'b1f5a7e2-1111-4222-8333-444455556666' };
    for (const [field, value] of [['defaultRuleChainId', ref], ['defaultEdgeRuleChainId', ref], ['defaultDashboardId', { ...ref, entityType: 'DASHBOARD' }]] as const) {
      const res = await api('POST', '/api/deviceProfile', { name: `refused-${field}`, [field]: value });
      expect(res.status).toBe(400);
      expect((res.json() as { message: string }).message).toContain(field);
    }
    const alarms = await api('POST', '/api/deviceProfile', { name: 'refused-alarms', profileData: { alarms: [{ id: 'a', alarmType: 'High' }] } });
    expect(alarms.status).toBe(400);
    expect(alarms.text).toContain('alarms');
  });
});

describe('the optimistic lock', () => {
  it('counts saves, refuses a save of a stale version with 409, and lets a save without a version overwrite', async () => {
    const customer = await saved('/api/customer', { title: 'versioned' });
    expect(customer.version).toBe(1);
    const second = await saved('/api/customer', { ...customer, city: 'Oslo' });
    expect(second.version).toBe(2);
    const stale = await api('POST', '/api/customer', { ...customer, city: 'Bergen' });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ status: 409, errorCode: 35, message: 'Customer was already changed by someone else' });
    expect(((await api('GET', `/api/customer/${customer.id.id}`)).json() as Entity).city).toBe('Oslo');
    const { version: _dropped, ...unversioned } = customer;
    expect((await saved('/api/customer', { ...unversioned, city: 'Bergen' })).version).toBe(3);

    const device = await saved('/api/device', { name: 'versioned-device' });
    const assigned = await api('POST', `/api/customer/${customer.id.id}/device/${device.id.id}`);
    expect((assigned.json() as Entity).version).toBe(2);
    expect((await api('POST', '/api/device', device)).status).toBe(409);
  });
});

describe('the tenant', () => {
  it('has an id: its telemetry is not modelled (501), another id is not found', async () => {
    const own = await api('GET', `/api/plugins/telemetry/TENANT/${TENANT_ID}/values/attributes`);
    expect(own.status).toBe(501);
    expect((await api('GET', '/api/plugins/telemetry/TENANT/b1f5a7e2-1111-4222-8333-444455556666/values/attributes')).status).toBe(404);
  });
});
