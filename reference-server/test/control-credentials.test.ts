import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, loginAs, type Api } from './control-helpers.js';
import { call, startTestServer, stopTestServer, type TestServer } from './helpers.js';

let server: TestServer;
let api: Api;
let profileId: string;
beforeAll(async () => {
  server = await startTestServer();
  const jwt = await loginAs(server);
  api = client(server, jwt);
  // Outside a test, so without the client's soft contract checks (the profile tests cover this call).
  const profile = await call(server.httpUrl, 'POST', '/api/deviceProfile', {
    name: 'creds', provisionType: 'ALLOW_CREATE_NEW_DEVICES', provisionDeviceKey: 'creds-key',
    profileData: { provisionConfiguration: { type: 'ALLOW_CREATE_NEW_DEVICES', provisionDeviceSecret: 'creds-secret' } },
  }, { 'x-authorization': `Bearer ${jwt}` });
  profileId = (profile.json() as { id: { id: string } }).id.id;
});
afterAll(() => stopTestServer(server));

const provision = (body: object) =>
  call(server.httpUrl, 'POST', '/api/v1/provision', { provisionDeviceKey: 'creds-key', provisionDeviceSecret: 'creds-secret', ...body });
const sha3 = (text: string) => createHash('sha3-256').update(text).digest('hex');

async function credentialsOf(name: string) {
  const device = (await api('GET', `/api/tenant/devices?deviceName=${name}`)).json() as { id: { id: string }; type: string; deviceProfileId: { id: string } };
  return { device, credentials: (await api('GET', `/api/device/${device.id.id}/credentials`)).json() as Record<string, unknown> };
}

describe('provisioning with other credentials', () => {
  it('creates an X.509 device whose credentials id is the SHA3-256 hex of the certificate text', async () => {
    const res = await provision({ deviceName: 'x509-dev', credentialsType: 'X509_CERTIFICATE', hash: 'testHash' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ credentialsValue: 'testHash', credentialsType: 'X509_CERTIFICATE', status: 'SUCCESS' });
    const { device, credentials } = await credentialsOf('x509-dev');
    expect(device).toMatchObject({ type: 'creds', deviceProfileId: { id: profileId } });
    expect(credentials).toMatchObject({ credentialsType: 'X509_CERTIFICATE', credentialsId: sha3('testHash'), credentialsValue: 'testHash' });
    expect(credentials.credentialsId).toBe('57f6600424d6553263f1f32e0117012894a36fbf07e3e9c3c556272f86b7d985');
    // The credentials id is no access token: the HTTP device API refuses it.
    expect((await call(server.httpUrl, 'POST', `/api/v1/${sha3('testHash')}/telemetry`, { t: 1 })).status).toBe(401);
    // The same certificate again: taken.
    expect((await provision({ deviceName: 'x509-dev-2', credentialsType: 'X509_CERTIFICATE', hash: 'testHash' })).json()).toMatchObject({ status: 'FAILURE' });
    expect(server.ctx.store.deviceByName('x509-dev-2')).toBeUndefined();
  });

  it('strips the PEM armour and line breaks before hashing a certificate', async () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIBabc\r\nDEF=\n-----END CERTIFICATE-----\n';
    expect((await provision({ deviceName: 'pem-dev', credentialsType: 'X509_CERTIFICATE', hash: pem })).json())
      .toEqual({ credentialsValue: 'MIIBabcDEF=', credentialsType: 'X509_CERTIFICATE', status: 'SUCCESS' });
    expect((await credentialsOf('pem-dev')).credentials).toMatchObject({ credentialsId: sha3('MIIBabcDEF=') });
  });

  it('creates an MQTT basic device and answers its credentials as a JSON object', async () => {
    const res = await provision({ deviceName: 'mqtt-dev', credentialsType: 'MQTT_BASIC', clientId: 'c1', username: 'u1', password: 'p1' });
    expect(res.text).toBe('{"credentialsValue":{"clientId":"c1","userName":"u1","password":"p1"},"credentialsType":"MQTT_BASIC","status":"SUCCESS"}');
    const { credentials } = await credentialsOf('mqtt-dev');
    expect(credentials).toMatchObject({
      credentialsType: 'MQTT_BASIC', credentialsId: sha3('c1|u1'), credentialsValue: '{"clientId":"c1","userName":"u1","password":"p1"}',
    });
    // A user name alone is the credentials id itself.
    await provision({ deviceName: 'mqtt-user', credentialsType: 'MQTT_BASIC', username: 'only-user' });
    expect((await credentialsOf('mqtt-user')).credentials).toMatchObject({ credentialsId: 'only-user' });
    // A password with a client id but no user name is refused, and nothing is created.
    expect((await provision({ deviceName: 'mqtt-bad', credentialsType: 'MQTT_BASIC', clientId: 'c2', password: 'p' })).json()).toMatchObject({ status: 'FAILURE' });
    expect(server.ctx.store.deviceByName('mqtt-bad')).toBeUndefined();
  });

  it('gives a generated access token when the request carries no credential data, and keeps a requested token', async () => {
    const generated = (await provision({ deviceName: 'plain-dev', credentialsType: 'X509_CERTIFICATE' })).json() as { credentialsValue: string; credentialsType: string };
    expect(generated.credentialsType).toBe('ACCESS_TOKEN');
    expect(generated.credentialsValue).toMatch(/^[A-Za-z0-9]{20}$/);
    expect((await call(server.httpUrl, 'POST', `/api/v1/${generated.credentialsValue}/telemetry`, { t: 1 })).status).toBe(200);
    expect((await provision({ deviceName: 'token-dev', token: 'TOKEN-DEV-1' })).json()).toEqual({ credentialsValue: 'TOKEN-DEV-1', credentialsType: 'ACCESS_TOKEN', status: 'SUCCESS' });
    expect((await credentialsOf('token-dev')).credentials).toMatchObject({ credentialsType: 'ACCESS_TOKEN', credentialsId: 'TOKEN-DEV-1', credentialsValue: null });
  });
});
