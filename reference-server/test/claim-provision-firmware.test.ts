import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDevice, startTestServer, stopTestServer, type TestServer } from './helpers.js';
import type { OtaRecord, ProfileRecord } from '../store/types.js';
import { newProfile } from '../device-records.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ claimDurationMs: 120_000, claimCacheTtlMs: 300_000 });
});
afterAll(async () => {
  await stopTestServer(server);
});

describe('operation 8: claim', () => {
  it('stores the secret and the window, with the defaults when the body is empty or absent', async () => {
    const device = await createDevice(server.ctx);
    const before = Date.now();
    expect((await call(server.httpUrl, 'POST', `/api/v1/${device.token}/claim`, { secretKey: 'k', durationMs: 60_000 })).status).toBe(200);
    const claim = server.ctx.store.claim(device.id)!;
    expect(claim.secretKey).toBe('k');
    expect(claim.expiresAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(claim.expiresAt).toBeLessThanOrEqual(Date.now() + 60_000);

    const other = await createDevice(server.ctx);
    expect((await call(server.httpUrl, 'POST', `/api/v1/${other.token}/claim`)).status).toBe(200);
    const defaults = server.ctx.store.claim(other.id)!;
    expect(defaults.secretKey).toBe('');
    expect(defaults.expiresAt).toBeGreaterThanOrEqual(before + 120_000);
  });

  it('keeps the first window while it is cached, expired or not; a new one once the cache TTL has passed', async () => {
    const device = await createDevice(server.ctx);
    const claim = (secretKey: string, durationMs: number) =>
      call(server.httpUrl, 'POST', `/api/v1/${device.token}/claim`, { secretKey, durationMs });
    const setClaim = (expiresAt: number, cachedUntil: number) =>
      server.ctx.store.write(() => server.ctx.store.setClaim({ deviceId: device.id, secretKey: 'first', expiresAt, cachedUntil }));
    expect((await claim('first', 60_000)).status).toBe(200);
    expect((await claim('second', 60_000)).status).toBe(200);
    expect(server.ctx.store.claim(device.id)!.secretKey).toBe('first');
    await setClaim(Date.now() - 1, Date.now() + 60_000);
    expect((await claim('third', 60_000)).status).toBe(200);
    expect(server.ctx.store.claim(device.id)!.secretKey).toBe('first');
    await setClaim(Date.now() - 1, Date.now() - 1);
    const before = Date.now();
    expect((await claim('fourth', 60_000)).status).toBe(200);
    const opened = server.ctx.store.claim(device.id)!;
    expect(opened.secretKey).toBe('fourth');
    expect(opened.cachedUntil).toBeGreaterThanOrEqual(before + 300_000);
  });

  it('opens no window for a device a customer already owns, still answering 200', async () => {
    const customer = {
      id: crypto.randomUUID(), title: `c-${crypto.randomUUID()}`, country: null, state: null, city: null, address: null,
      address2: null, zip: null, phone: null, email: null, additionalInfo: null, externalId: null, version: 1, createdTime: Date.now(),
    };
    await server.ctx.store.write(() => server.ctx.store.insertCustomer(customer));
    const device = await createDevice(server.ctx, { customerId: customer.id });
    expect((await call(server.httpUrl, 'POST', `/api/v1/${device.token}/claim`, { secretKey: 'k' })).status).toBe(200);
    expect(server.ctx.store.claim(device.id)).toBeUndefined();
  });

  it('rejects a durationMs that is not an integer with 400', async () => {
    const device = await createDevice(server.ctx);
    const res = await call(server.httpUrl, 'POST', `/api/v1/${device.token}/claim`, { durationMs: 'soon' });
    expect(res.status).toBe(400);
    expect(server.ctx.store.claim(device.id)).toBeUndefined();
  });
});

async function profile(type: ProfileRecord['provisionType']): Promise<ProfileRecord> {
  const record: ProfileRecord = {
    ...newProfile(`p-${randomUUID()}`), provisionType: type, provisionKey: `key-${randomUUID()}`, provisionSecret: 'secret',
  };
  await server.ctx.store.write(() => server.ctx.store.insertProfile(record));
  return record;
}

const provision = (body: object) => call(server.httpUrl, 'POST', '/api/v1/provision', body);

describe('operation 9: provision', () => {
  it('creates a device under ALLOW_CREATE_NEW_DEVICES and returns its token; a taken name fails', async () => {
    const p = await profile('ALLOW_CREATE_NEW_DEVICES');
    const name = `new-${randomUUID()}`;
    const res = await provision({ deviceName: name, provisionDeviceKey: p.provisionKey, provisionDeviceSecret: 'secret', gateway: true });
    expect(res.status).toBe(200);
    const body = res.json() as { credentialsValue: string };
    expect(body).toMatchObject({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN' });
    const device = server.ctx.store.deviceByName(name)!;
    expect(device.token).toBe(body.credentialsValue);
    expect(device.profileId).toBe(p.id);
    expect(device.additionalInfo).toEqual({ gateway: true });
    // The new token works on the device API.
    expect((await call(server.httpUrl, 'POST', `/api/v1/${body.credentialsValue}/telemetry`, { a: 1 })).status).toBe(200);
    const again = await provision({ deviceName: name, provisionDeviceKey: p.provisionKey, provisionDeviceSecret: 'secret' });
    expect(again.json()).toEqual({ errorMsg: 'Failed to provision device!', status: 'FAILURE' });
  });

  it('keeps a token given in the request and generates a name when none is given', async () => {
    const p = await profile('ALLOW_CREATE_NEW_DEVICES');
    const token = `tok${Date.now()}`;
    const res = await provision({ provisionDeviceKey: p.provisionKey, provisionDeviceSecret: 'secret', token });
    expect(res.json()).toMatchObject({ status: 'SUCCESS', credentialsValue: token });
    expect(server.ctx.store.deviceByToken(token)!.name).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('provisions a pre-provisioned device once under CHECK_PRE_PROVISIONED_DEVICES', async () => {
    const p = await profile('CHECK_PRE_PROVISIONED_DEVICES');
    const device = await createDevice(server.ctx, { profileId: p.id });
    const body = { deviceName: device.name, provisionDeviceKey: p.provisionKey, provisionDeviceSecret: 'secret' };
    expect((await provision(body)).json()).toEqual({ credentialsValue: device.token, credentialsType: 'ACCESS_TOKEN', status: 'SUCCESS' });
    expect((await provision(body)).json()).toMatchObject({ status: 'FAILURE' });
    expect((await provision({ ...body, deviceName: 'missing-device' })).json()).toMatchObject({ status: 'FAILURE' });
  });

  it('answers NOT_FOUND for a wrong secret, an unknown key and a disabled profile', async () => {
    const p = await profile('ALLOW_CREATE_NEW_DEVICES');
    const disabled = await profile('DISABLED');
    const notFound = { errorMsg: 'Provision data was not found!', status: 'NOT_FOUND' };
    expect((await provision({ deviceName: 'x1', provisionDeviceKey: p.provisionKey, provisionDeviceSecret: 'wrong' })).json()).toEqual(notFound);
    expect((await provision({ deviceName: 'x2', provisionDeviceKey: 'nope', provisionDeviceSecret: 'secret' })).json()).toEqual(notFound);
    expect((await provision({ deviceName: 'x3', provisionDeviceKey: disabled.provisionKey, provisionDeviceSecret: 'secret' })).json()).toEqual(notFound);
    expect(server.ctx.store.deviceByName('x1')).toBeUndefined();
  });

  it('rejects a missing key or secret field with 400', async () => {
    expect((await provision({ deviceName: 'x', provisionDeviceSecret: 's' })).status).toBe(400);
    expect((await provision({ deviceName: 'x', provisionDeviceKey: 'k' })).status).toBe(400);
  });
});

describe('operation 10: firmware and software', () => {
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7) % 256));

  async function assignFirmware(type: 'FIRMWARE' | 'SOFTWARE' = 'FIRMWARE') {
    const ota: OtaRecord = {
      id: randomUUID(), type, title: 'fw', version: `1.${randomUUID()}`, tag: null, url: null, profileId: null,
      fileName: 'fw.bin', contentType: 'application/octet-stream', checksumAlgorithm: 'SHA256',
      checksum: createHash('sha256').update(bytes).digest('hex'), dataSize: bytes.length, additionalInfo: null,
      externalId: null, createdTime: Date.now(),
    };
    const field = type === 'FIRMWARE' ? 'firmwareId' : 'softwareId';
    const device = await createDevice(server.ctx, { [field]: ota.id });
    await server.ctx.store.write(() => {
      server.ctx.store.insertOta(ota);
      server.ctx.store.setOtaData(ota.id, bytes);
    });
    return { device, ota };
  }

  it('returns the whole package, with the file name headers', async () => {
    const { device, ota } = await assignFirmware();
    const res = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/firmware?title=fw&version=${ota.version}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment;filename=fw.bin');
    expect(res.headers['x-filename']).toBe('fw.bin');
    expect(res.headers['content-length']).toBe('1000');
  });

  it('returns chunks that add up to the package, and an empty 200 past the end', async () => {
    const { device, ota } = await assignFirmware('SOFTWARE');
    const chunks: Buffer[] = [];
    const size = 300;
    for (let chunk = 0; chunk <= Math.ceil(bytes.length / size); chunk++) {
      const res = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/software?title=fw&version=${ota.version}&size=${size}&chunk=${chunk}`);
      expect(res.status).toBe(200);
      chunks.push(res.bytes);
    }
    expect(chunks.map((c) => c.length)).toEqual([300, 300, 300, 100, 0]);
    const joined = Buffer.concat(chunks);
    expect(joined.equals(bytes)).toBe(true);
    expect(createHash('sha256').update(joined).digest('hex')).toBe(ota.checksum);
  });

  it('answers 400 for another title or version, 404 when nothing is assigned, 400 for a missing title', async () => {
    const { device, ota } = await assignFirmware();
    expect((await call(server.httpUrl, 'GET', `/api/v1/${device.token}/firmware?title=FW&version=${ota.version}`)).status).toBe(400);
    expect((await call(server.httpUrl, 'GET', `/api/v1/${device.token}/firmware?title=fw&version=0.0`)).status).toBe(400);
    const bare = await createDevice(server.ctx);
    const none = await call(server.httpUrl, 'GET', `/api/v1/${bare.token}/firmware?title=fw&version=1`);
    expect(none.status).toBe(404);
    expect(none.json()).toMatchObject({ status: 404, errorCode: 32 });
    expect((await call(server.httpUrl, 'GET', `/api/v1/${device.token}/firmware?version=1`)).status).toBe(400);
    expect((await call(server.httpUrl, 'GET', `/api/v1/${device.token}/firmware?title=fw&version=1&chunk=-1`)).status).toBe(400);
  });
});
