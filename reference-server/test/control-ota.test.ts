import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config.js';
import { call, startTestServer, stopTestServer, type TestServer } from './helpers.js';
import { client, loginAs, newDeviceVia, openPolls, upload, type Api } from './control-helpers.js';

const UPLOAD_LIMIT = 64 * 1024;
const FOX = Buffer.from('The quick brown fox jumps over the lazy dog');
const UNKNOWN = '6a1bd9b0-0000-4000-8000-000000000000';
let server: TestServer;
let jwt: string;
let api: Api;
let defaultProfileId: string;
beforeAll(async () => {
  server = await startTestServer({ payloadLimits: [{ pattern: '/api/otaPackage/*', bytes: UPLOAD_LIMIT }, ...defaultConfig.payloadLimits] });
  jwt = await loginAs(server);
  api = client(server, jwt);
  defaultProfileId = server.ctx.store.defaultProfile().id;
});
afterAll(async () => {
  await stopTestServer(server);
});

let packages = 0;
async function createPackage(fields: object = {}): Promise<string> {
  packages++;
  const res = await api('POST', '/api/otaPackage', {
    title: `fw-${packages}`, version: '1.0', type: 'FIRMWARE', deviceProfileId: { entityType: 'DEVICE_PROFILE', id: defaultProfileId }, ...fields,
  });
  expect(res.status).toBe(200);
  return (res.json() as { id: { id: string } }).id.id;
}

async function packageWithData(bytes: Buffer, fields: object = {}, algorithm = 'SHA256'): Promise<{ id: string; info: Record<string, unknown> }> {
  const id = await createPackage(fields);
  const res = await upload(server, jwt, `/api/otaPackage/${id}?checksumAlgorithm=${algorithm}`, bytes);
  expect(res.status).toBe(200);
  return { id, info: res.json() as Record<string, unknown> };
}

const ref = (id: string | null) => (id ? { entityType: 'OTA_PACKAGE', id } : null);

async function setDevicePackage(deviceId: string, field: 'firmwareId' | 'softwareId', packageId: string | null) {
  const device = (await api('GET', `/api/device/${deviceId}`)).json() as object;
  return api('POST', '/api/device', { ...device, [field]: ref(packageId) });
}

describe('OTA packages', () => {
  it('creates the info without data, then uploads the file and computes each checksum as ThingsBoard prints it', async () => {
    const info = await api('POST', '/api/otaPackage', { title: 'fox', version: '1', type: 'FIRMWARE', tag: 'fox 1' });
    expect(info.json()).toMatchObject({ id: { entityType: 'OTA_PACKAGE' }, title: 'fox', version: '1', type: 'FIRMWARE', tag: 'fox 1', hasData: false, checksum: null });
    expect((await api('POST', '/api/otaPackage', { title: 'fox', version: '1', type: 'FIRMWARE' })).status).toBe(400);

    const expected: Record<string, string> = {
      MD5: '9e107d9d372bb6826bd81d3542a419d6',
      SHA256: 'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
      SHA384: createHash('sha384').update(FOX).digest('hex'),
      SHA512: createHash('sha512').update(FOX).digest('hex'),
      CRC32: '414fa339',
      MURMUR3_32: '23f74f2e',
      MURMUR3_128: '6c1b07bc7bbc4be347939ac4a93c437a',
    };
    for (const [algorithm, checksum] of Object.entries(expected)) {
      const { info: uploaded } = await packageWithData(FOX, {}, algorithm);
      expect(uploaded).toMatchObject({ hasData: true, checksumAlgorithm: algorithm, checksum, dataSize: FOX.length, fileName: 'fw.bin', contentType: 'application/octet-stream' });
    }
  });

  it('prints CRC32 without zero padding (Long.toHexString)', async () => {
    let i = 0;
    while (crc32(Buffer.from(`x${i}`)) >= 0x10000000) i++;
    const bytes = Buffer.from(`x${i}`);
    const { info } = await packageWithData(bytes, {}, 'CRC32');
    expect(info.checksum).toBe(crc32(bytes).toString(16));
    expect((info.checksum as string).length).toBeLessThan(8);
  });

  it('verifies a given checksum (case-insensitive) and refuses a mismatch with 400', async () => {
    const sha = createHash('sha256').update(FOX).digest('hex');
    const id = await createPackage();
    expect((await upload(server, jwt, `/api/otaPackage/${id}?checksumAlgorithm=SHA256&checksum=${'0'.repeat(64)}`, FOX)).status).toBe(400);
    const ok = await upload(server, jwt, `/api/otaPackage/${id}?checksumAlgorithm=SHA256&checksum=${sha.toUpperCase()}`, FOX);
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ checksum: sha });
  });

  it('answers 4xx for a missing part, an empty file, a second upload, a bad algorithm, an unknown package and a file over the limit', async () => {
    const id = await createPackage();
    expect((await api('POST', `/api/otaPackage/${id}?checksumAlgorithm=SHA256`, { file: 'x' })).status).toBe(400);
    expect((await upload(server, jwt, `/api/otaPackage/${id}?checksumAlgorithm=SHA256`, Buffer.alloc(0))).status).toBe(400);
    expect((await upload(server, jwt, `/api/otaPackage/${id}?checksumAlgorithm=SHA1`, FOX)).status).toBe(400);
    expect((await upload(server, jwt, `/api/otaPackage/${id}`, FOX)).status).toBe(400);
    expect((await upload(server, jwt, `/api/otaPackage/${UNKNOWN}?checksumAlgorithm=SHA256`, FOX)).status).toBe(404);
    const tooLarge = await upload(server, jwt, `/api/otaPackage/${id}?checksumAlgorithm=SHA256`, Buffer.alloc(UPLOAD_LIMIT + 1));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json()).toMatchObject({ status: 413 });
    expect(server.ctx.store.otaById(id)?.dataSize).toBeNull();
    const garbage = await call(server.httpUrl, 'POST', `/api/otaPackage/${id}?checksumAlgorithm=SHA256`, 'garbage', {
      'content-type': 'multipart/form-data; boundary=xyz', 'x-authorization': `Bearer ${jwt}`,
    });
    expect(garbage.status).toBe(400);
    expect(garbage.json()).toMatchObject({ status: 400, errorCode: 31 });
    expect((await upload(server, jwt, `/api/otaPackage/${id}?checksumAlgorithm=SHA256`, FOX)).status).toBe(200);
    expect((await upload(server, jwt, `/api/otaPackage/${id}?checksumAlgorithm=SHA256`, FOX)).status).toBe(400);
  });

  it('downloads the file with a sanitised name, reads the info and lists packages', async () => {
    const id = await createPackage();
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await upload(server, jwt, `/api/otaPackage/${id}?checksumAlgorithm=MD5`, bytes, '../dir/my fw;v2.bin', 'application/x-firmware');
    const res = await call(server.httpUrl, 'GET', `/api/otaPackage/${id}/download`, undefined, { 'x-authorization': `Bearer ${jwt}` });
    expect(res.status).toBe(200);
    expect(res.bytes.equals(bytes)).toBe(true);
    expect(res.headers['content-disposition']).toBe('attachment;filename=my_fw_v2.bin');
    expect(res.headers['x-filename']).toBe('my_fw_v2.bin');
    expect(res.headers['content-type']).toBe('application/x-firmware');
    expect((await api('GET', `/api/otaPackage/${id}`)).json()).toMatchObject({ id: { id }, fileName: 'my_fw_v2.bin', dataSize: 1000 });
    const list = (await api('GET', '/api/otaPackages?pageSize=100')).json() as { data: { id: { id: string } }[]; totalElements: number };
    expect(list.data.map((p) => p.id.id)).toContain(id);
    expect((await api('GET', '/api/otaPackages')).status).toBe(400);
    expect((await api('GET', `/api/otaPackage/${await createPackage()}/download`)).status).toBe(404);
    expect((await api('GET', `/api/otaPackage/${UNKNOWN}`)).status).toBe(404);
  });
});

describe('assigning packages', () => {
  it('sets fw_* on the device at once (reaching its poll), serves chunks that add up to the file, and clears fw_* on unassignment', async () => {
    const bytes = Buffer.from(Array.from({ length: 2500 }, (_, i) => (i * 7) % 256));
    const { id, info } = await packageWithData(bytes, { title: 'chunky', version: '2.0' });
    const device = await newDeviceVia(api);
    const poll = call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes/updates?timeout=20000`);
    await openPolls(server, 'attributes', 1);
    const assigned = await setDevicePackage(device.id, 'firmwareId', id);
    expect(assigned.json()).toMatchObject({ firmwareId: { entityType: 'OTA_PACKAGE', id } });
    const sha = createHash('sha256').update(bytes).digest('hex');
    const fw = { fw_title: 'chunky', fw_version: '2.0', fw_size: 2500, fw_checksum: sha, fw_checksum_algorithm: 'SHA256' };
    expect((await poll).json()).toEqual(fw);
    expect(info.checksum).toBe(sha);

    const keys = Object.keys(fw).map((k) => `sharedKeys=${k}`).join('&');
    const shared = (await call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes?${keys}`)).json() as { shared: typeof fw };
    expect(shared.shared).toEqual(fw);
    const size = 1000;
    const chunks: Buffer[] = [];
    for (let chunk = 0; chunk <= Math.ceil(shared.shared.fw_size / size); chunk++) {
      const res = await call(server.httpUrl, 'GET', `/api/v1/${device.token}/firmware?title=chunky&version=2.0&size=${size}&chunk=${chunk}`);
      expect(res.status).toBe(200);
      chunks.push(res.bytes);
    }
    expect(chunks.map((c) => c.length)).toEqual([1000, 1000, 500, 0]);
    const whole = Buffer.concat(chunks);
    expect(whole.equals(bytes)).toBe(true);
    expect(createHash('sha256').update(whole).digest('hex')).toBe(shared.shared.fw_checksum);

    const deleting = await api('DELETE', `/api/otaPackage/${id}`);
    expect(deleting.status).toBe(400);
    const unassignPoll = call(server.httpUrl, 'GET', `/api/v1/${device.token}/attributes/updates?timeout=20000`);
    await openPolls(server, 'attributes', 1);
    expect((await setDevicePackage(device.id, 'firmwareId', null)).status).toBe(200);
    expect(((await unassignPoll).json() as { deleted: string[] }).deleted.sort()).toEqual(Object.keys(fw).sort());
    expect(server.ctx.store.attributes(device.id, 'SHARED_SCOPE')).toEqual([]);
    expect((await call(server.httpUrl, 'GET', `/api/v1/${device.token}/firmware?title=chunky&version=2.0`)).status).toBe(404);
    expect((await api('DELETE', `/api/otaPackage/${id}`)).status).toBe(200);
    expect((await api('GET', `/api/otaPackage/${id}`)).status).toBe(404);
  });

  it('applies a profile\'s package to its devices without their own, and sets sw_* for software', async () => {
    const profile = await api('POST', '/api/deviceProfile', { name: 'ota-profile' });
    const profileId = (profile.json() as { id: { id: string } }).id.id;
    const profileRef = { entityType: 'DEVICE_PROFILE', id: profileId };
    const inherits = await newDeviceVia(api, { deviceProfileId: profileRef });
    const own = await newDeviceVia(api, { deviceProfileId: profileRef });
    const ownPackage = await packageWithData(Buffer.from('own'), { deviceProfileId: profileRef });
    await setDevicePackage(own.id, 'firmwareId', ownPackage.id);
    const fw = await packageWithData(Buffer.from('profile firmware'), { deviceProfileId: profileRef, title: 'pfw' });
    const sw = await packageWithData(Buffer.from('profile software'), { deviceProfileId: profileRef, type: 'SOFTWARE', title: 'psw' });

    const saved = await api('POST', '/api/deviceProfile', { ...(profile.json() as object), firmwareId: ref(fw.id), softwareId: ref(sw.id) });
    expect(saved.status).toBe(200);
    const shared = (id: string) => Object.fromEntries(server.ctx.store.attributes(id, 'SHARED_SCOPE').map((e) => [e.key, e.value]));
    expect(shared(inherits.id)).toMatchObject({ fw_title: 'pfw', sw_title: 'psw', sw_size: 16 });
    expect(shared(own.id)).toMatchObject({ fw_title: ownPackage.info.title, sw_title: 'psw' });
    const download = await call(server.httpUrl, 'GET', `/api/v1/${inherits.token}/software?title=psw&version=1.0`);
    expect(download.text).toBe('profile software');
  });

  it('refuses a package of the other type, one without data, or one of another profile with 400', async () => {
    const device = await newDeviceVia(api);
    const software = await packageWithData(Buffer.from('sw'), { type: 'SOFTWARE' });
    expect((await setDevicePackage(device.id, 'firmwareId', software.id)).status).toBe(400);
    expect((await setDevicePackage(device.id, 'firmwareId', await createPackage())).status).toBe(400);
    const other = (await api('POST', '/api/deviceProfile', { name: 'other-profile' })).json() as { id: { id: string } };
    const foreign = await packageWithData(Buffer.from('x'), { deviceProfileId: { entityType: 'DEVICE_PROFILE', id: other.id.id } });
    expect((await setDevicePackage(device.id, 'firmwareId', foreign.id)).status).toBe(400);
    expect(server.ctx.store.deviceById(device.id)?.firmwareId).toBeNull();
  });

  it('takes back unchanged the info it answered (with "tag": null), before and after the upload', async () => {
    const created = await api('POST', '/api/otaPackage', { title: 'roundtrip', version: '1.0', type: 'FIRMWARE', deviceProfileId: { entityType: 'DEVICE_PROFILE', id: defaultProfileId } });
    const info = created.json() as Record<string, unknown> & { id: { id: string } };
    expect(info).toMatchObject({ tag: null, url: null, hasData: false });
    const again = await api('POST', '/api/otaPackage', info);
    expect(again.status).toBe(200);
    expect(again.json()).toEqual(info);
    const uploaded = (await upload(server, jwt, `/api/otaPackage/${info.id.id}?checksumAlgorithm=SHA256`, FOX)).json() as Record<string, unknown>;
    const posted = await api('POST', '/api/otaPackage', uploaded);
    expect(posted.status).toBe(200);
    expect(posted.json()).toEqual(uploaded);
  });

  it('reads checksumAlgorithm and checksum from form fields when the query lacks them, the query winning', async () => {
    const sha256 = createHash('sha256').update(FOX).digest('hex');
    const fromForm = await upload(server, jwt, `/api/otaPackage/${await createPackage()}`, FOX, 'fw.bin', 'application/octet-stream', { checksumAlgorithm: 'SHA256' });
    expect(fromForm.status).toBe(200);
    expect(fromForm.json()).toMatchObject({ checksumAlgorithm: 'SHA256', checksum: sha256, hasData: true });
    const bothWays = await upload(server, jwt, `/api/otaPackage/${await createPackage()}?checksumAlgorithm=MD5`, FOX, 'fw.bin', 'application/octet-stream', { checksumAlgorithm: 'SHA256' });
    expect(bothWays.json()).toMatchObject({ checksumAlgorithm: 'MD5', checksum: '9e107d9d372bb6826bd81d3542a419d6' });
    const wrong = await upload(server, jwt, `/api/otaPackage/${await createPackage()}`, FOX, 'fw.bin', 'application/octet-stream', { checksumAlgorithm: 'SHA256', checksum: 'abc' });
    expect(wrong.status).toBe(400);
    const missing = await upload(server, jwt, `/api/otaPackage/${await createPackage()}`, FOX);
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ status: 400, errorCode: 31 });
  });

  it('reads the info by /otaPackage/info/{id} and lists a profile\'s assignable packages of one type', async () => {
    const profile = ((await api('POST', '/api/deviceProfile', { name: 'ota-list-profile' })).json() as { id: { id: string } }).id.id;
    const onProfile = { deviceProfileId: { entityType: 'DEVICE_PROFILE', id: profile } };
    const empty = await createPackage(onProfile);
    const { id: withData } = await packageWithData(FOX, onProfile);
    const withUrl = await createPackage({ ...onProfile, url: 'https://example.com/fw.bin' });
    await packageWithData(FOX, { ...onProfile, type: 'SOFTWARE' });
    await packageWithData(FOX);
    const info = await api('GET', `/api/otaPackage/info/${withData}`);
    expect(info.json()).toMatchObject({ id: { id: withData }, hasData: true, dataSize: FOX.length, checksumAlgorithm: 'SHA256' });
    expect((await api('GET', `/api/otaPackage/info/${UNKNOWN}`)).status).toBe(404);
    const page = (await api('GET', `/api/otaPackages/${profile}/FIRMWARE?pageSize=10&sortProperty=createdTime&sortOrder=ASC`)).json() as { data: { id: { id: string } }[]; totalElements: number };
    expect(page.data.map((p) => p.id.id)).toEqual([withData, withUrl]);
    expect(page.data.map((p) => p.id.id)).not.toContain(empty);
    expect(((await api('GET', `/api/otaPackages/${profile}/SOFTWARE?pageSize=10`)).json() as { totalElements: number }).totalElements).toBe(1);
    expect((await api('GET', `/api/otaPackages/${profile}/BOOTLOADER?pageSize=10`)).status).toBe(400);
  });
});
