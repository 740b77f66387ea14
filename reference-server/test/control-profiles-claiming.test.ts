import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { startAdminServer, UNKNOWN_ID as UNKNOWN, client, newDeviceVia, type Api } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

const provision = (body: object) => call(server.httpUrl, 'POST', '/api/v1/provision', body);
type Profile = Record<string, unknown> & { id: { id: string } };

describe('device profiles and provisioning', () => {
  it('configures provisioning through the profile API, as msa does, and the device API follows it', async () => {
    const created = await api('POST', '/api/deviceProfile', {
      name: 'provisioned', type: 'DEFAULT', transportType: 'DEFAULT', provisionType: 'ALLOW_CREATE_NEW_DEVICES', provisionDeviceKey: 'test_provision_key',
      profileData: { configuration: { type: 'DEFAULT' }, transportConfiguration: { type: 'DEFAULT' }, provisionConfiguration: { type: 'ALLOW_CREATE_NEW_DEVICES', provisionDeviceSecret: 'test_provision_secret' } },
    });
    expect(created.status).toBe(200);
    const profile = created.json() as Profile;
    expect(profile).toMatchObject({
      id: { entityType: 'DEVICE_PROFILE' }, name: 'provisioned', default: false, provisionType: 'ALLOW_CREATE_NEW_DEVICES', provisionDeviceKey: 'test_provision_key',
      profileData: { provisionConfiguration: { type: 'ALLOW_CREATE_NEW_DEVICES', provisionDeviceSecret: 'test_provision_secret' } },
    });

    const ok = await provision({ deviceName: 'prov-1', provisionDeviceKey: 'test_provision_key', provisionDeviceSecret: 'test_provision_secret' });
    expect(ok.json()).toMatchObject({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN' });
    expect(server.ctx.store.deviceByName('prov-1')?.profileId).toBe(profile.id.id);
    expect((await provision({ deviceName: 'prov-2', provisionDeviceKey: 'test_provision_key', provisionDeviceSecret: 'wrong' })).json()).toMatchObject({ status: 'NOT_FOUND' });

    // GET, change, POST back: pre-provisioned devices only.
    const current = (await api('GET', `/api/deviceProfile/${profile.id.id}`)).json() as Profile;
    const updated = await api('POST', '/api/deviceProfile', {
      ...current, provisionType: 'CHECK_PRE_PROVISIONED_DEVICES',
      profileData: { provisionConfiguration: { type: 'CHECK_PRE_PROVISIONED_DEVICES', provisionDeviceSecret: 'test_provision_secret' } },
    });
    expect(updated.json()).toMatchObject({ id: profile.id, provisionType: 'CHECK_PRE_PROVISIONED_DEVICES' });
    const device = await newDeviceVia(api, { deviceProfileId: profile.id });
    const body = { deviceName: device.name, provisionDeviceKey: 'test_provision_key', provisionDeviceSecret: 'test_provision_secret' };
    expect((await provision(body)).json()).toEqual({ credentialsValue: device.token, credentialsType: 'ACCESS_TOKEN', status: 'SUCCESS' });
    expect((await provision(body)).json()).toMatchObject({ status: 'FAILURE' });

    // DISABLED with key and secret nulled, as msa does; the copy read before the last save is stale (ThingsBoard's optimistic lock).
    const disabled = { provisionType: 'DISABLED', provisionDeviceKey: null, profileData: { provisionConfiguration: { type: 'DISABLED', provisionDeviceSecret: null } } };
    const stale = await api('POST', '/api/deviceProfile', { ...current, ...disabled });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ errorCode: 35, message: 'Device profile was already changed by someone else' });
    expect((await api('POST', '/api/deviceProfile', { ...(updated.json() as Profile), ...disabled })).status).toBe(200);
    expect((await provision(body)).json()).toMatchObject({ status: 'NOT_FOUND' });
    expect(server.ctx.store.profileById(profile.id.id)).toMatchObject({ provisionType: 'DISABLED', provisionKey: null, provisionSecret: null });
  });

  it('refuses inconsistent or duplicate provisioning settings and names with 400', async () => {
    const enabled = (key: string | null, secret: string | null) => ({
      name: `p-${Math.random()}`, provisionType: 'ALLOW_CREATE_NEW_DEVICES', provisionDeviceKey: key,
      profileData: { provisionConfiguration: { type: 'ALLOW_CREATE_NEW_DEVICES', provisionDeviceSecret: secret } },
    });
    expect((await api('POST', '/api/deviceProfile', enabled(null, 's'))).status).toBe(400);
    expect((await api('POST', '/api/deviceProfile', enabled('k', null))).status).toBe(400);
    expect((await api('POST', '/api/deviceProfile', enabled('dup-key', 's'))).status).toBe(200);
    expect((await api('POST', '/api/deviceProfile', enabled('dup-key', 's'))).status).toBe(400);
    expect((await api('POST', '/api/deviceProfile', { name: 'x', provisionType: 'DISABLED', profileData: { provisionConfiguration: { type: 'ALLOW_CREATE_NEW_DEVICES' } } })).status).toBe(400);
    expect((await api('POST', '/api/deviceProfile', { name: 'default' })).status).toBe(400);
    expect((await api('POST', '/api/deviceProfile', { name: 'x', provisionType: 'SOMETIMES' })).status).toBe(400);
  });

  it('reads, lists, switches the default and deletes profiles, refusing the default and used ones', async () => {
    const defaultId = server.ctx.store.defaultProfile().id;
    expect((await api('GET', `/api/deviceProfile/${defaultId}`)).json()).toMatchObject({ name: 'default', default: true, provisionType: 'DISABLED' });
    expect((await api('GET', `/api/deviceProfile/${UNKNOWN}`)).status).toBe(404);
    expect((await api('DELETE', `/api/deviceProfile/${defaultId}`)).status).toBe(400);
    const used = (await api('POST', '/api/deviceProfile', { name: 'used' })).json() as Profile;
    await newDeviceVia(api, { deviceProfileId: used.id });
    expect((await api('DELETE', `/api/deviceProfile/${used.id.id}`)).status).toBe(400);

    const list = (await api('GET', '/api/deviceProfiles?pageSize=100')).json() as { data: Profile[]; totalElements: number };
    expect(list.data.map((p) => p.name)).toEqual(expect.arrayContaining(['default', 'used']));
    expect((await api('GET', '/api/deviceProfiles')).status).toBe(400);

    const next = (await api('POST', '/api/deviceProfile', { name: 'next-default', default: true })).json() as Profile;
    expect(server.ctx.store.defaultProfile().id).toBe(next.id.id);
    expect((await api('GET', `/api/deviceProfile/${defaultId}`)).json()).toMatchObject({ default: false });
    const spare = (await api('POST', '/api/deviceProfile', { name: 'spare' })).json() as Profile;
    expect((await api('DELETE', `/api/deviceProfile/${spare.id.id}`)).status).toBe(200);
    expect((await api('DELETE', `/api/deviceProfile/${spare.id.id}`)).status).toBe(404);
  });
});

describe('claiming', () => {
  async function customerUser(title: string): Promise<{ customerId: string; user: Api }> {
    const customerId = ((await api('POST', '/api/customer', { title })).json() as { id: { id: string } }).id.id;
    const user = await api('POST', '/api/user', { email: `${title}@claim.example`, authority: 'CUSTOMER_USER', customerId: { entityType: 'CUSTOMER', id: customerId } });
    const pair = await api('GET', `/api/user/${(user.json() as { id: { id: string } }).id.id}/token`);
    return { customerId, user: client(server, (pair.json() as { token: string }).token) };
  }
  const openWindow = (token: string, body: object) => call(server.httpUrl, 'POST', `/api/v1/${token}/claim`, body);
  const claimPath = (name: string) => `/api/customer/device/${encodeURIComponent(name)}/claim`;

  it('answers FAILURE for a wrong key (removing the window), SUCCESS with the right one, then CLAIMED', async () => {
    const { customerId, user } = await customerUser('alpha');
    const device = await newDeviceVia(api);
    await openWindow(device.token, { secretKey: 'k', durationMs: 60_000 });
    const wrong = await user('POST', claimPath(device.name), { secretKey: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.headers['content-type']).toMatch(/^application\/json/);
    expect(wrong.text).toBe('"FAILURE"');
    expect(server.ctx.store.claim(device.id)).toBeUndefined();
    expect((await user('POST', claimPath(device.name), { secretKey: 'k' })).text).toBe('"FAILURE"');

    await openWindow(device.token, { secretKey: 'k', durationMs: 60_000 });
    const ok = await user('POST', claimPath(device.name), { secretKey: 'k' });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ response: 'SUCCESS', device: { id: { id: device.id }, customerId: { entityType: 'CUSTOMER', id: customerId } } });
    expect(server.ctx.store.deviceById(device.id)?.customerId).toBe(customerId);

    await openWindow(device.token, { secretKey: 'k', durationMs: 60_000 });
    const again = await user('POST', claimPath(device.name), { secretKey: 'k' });
    expect(again.status).toBe(400);
    expect(again.text).toBe('"CLAIMED"');
  });

  it('answers FAILURE for an expired window, and matches an empty secret without a body', async () => {
    const { user } = await customerUser('beta');
    const device = await newDeviceVia(api);
    await server.ctx.store.write(() => server.ctx.store.setClaim({ deviceId: device.id, secretKey: '', expiresAt: Date.now() - 1, cachedUntil: Date.now() + 60_000 }));
    expect((await user('POST', claimPath(device.name))).text).toBe('"FAILURE"');
    expect(server.ctx.store.claim(device.id)).toBeUndefined();
    await openWindow(device.token, {});
    expect((await user('POST', claimPath(device.name))).status).toBe(200);
  });

  it('answers FAILURE for an open window that the claim cache no longer holds', async () => {
    const { user } = await customerUser('zeta');
    const device = await newDeviceVia(api);
    await server.ctx.store.write(() => server.ctx.store.setClaim({ deviceId: device.id, secretKey: 'k', expiresAt: Date.now() + 60_000, cachedUntil: Date.now() - 1 }));
    expect((await user('POST', claimPath(device.name), { secretKey: 'k' })).text).toBe('"FAILURE"');
  });

  it('takes {"secretKey": null} as no secret: FAILURE before the device opens a window, SUCCESS after', async () => {
    const { customerId, user } = await customerUser('epsilon');
    const device = await newDeviceVia(api);
    expect((await user('POST', claimPath(device.name), { secretKey: null })).text).toBe('"FAILURE"');
    await openWindow(device.token, {});
    const ok = await user('POST', claimPath(device.name), { secretKey: null });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ response: 'SUCCESS', device: { customerId: { id: customerId } } });
  });

  it('lets only customer users claim, and the owner or a tenant admin reclaim', async () => {
    const { user: owner } = await customerUser('gamma');
    const { user: stranger } = await customerUser('delta');
    const device = await newDeviceVia(api);
    await openWindow(device.token, { secretKey: 's' });
    const byAdmin = await api('POST', claimPath(device.name), { secretKey: 's' });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.json()).toMatchObject({ status: 403, errorCode: 20 });
    expect((await owner('POST', claimPath('no-such-device'), { secretKey: 's' })).status).toBe(404);
    expect((await owner('POST', claimPath(device.name), { secretKey: 's' })).status).toBe(200);

    expect((await stranger('DELETE', claimPath(device.name))).status).toBe(403);
    expect((await owner('DELETE', claimPath(device.name))).status).toBe(200);
    expect(server.ctx.store.deviceById(device.id)?.customerId).toBeNull();
    await openWindow(device.token, { secretKey: 's' });
    expect((await stranger('POST', claimPath(device.name), { secretKey: 's' })).status).toBe(200);
    expect((await api('DELETE', claimPath(device.name))).status).toBe(200);
    expect(server.ctx.store.deviceById(device.id)?.customerId).toBeNull();
    expect((await api('DELETE', claimPath('no-such-device'))).status).toBe(404);
  });
});
