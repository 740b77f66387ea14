// Operation 9: POST /api/v1/provision (no token; key and secret of a device profile in the body).
import type { Case, CaseRun } from '../case.js';
import type { Failure } from '../verdict.js';
import type { Reply } from '../client.js';
import { attributesInclude, bodyEquals, checkAll, isErrorBody, isObject, isTrue, noting, should, statusIs, statusIsSuccess, valueEquals } from '../checks.js';
import { randomToken } from '../../spec/access-token.js';
import type { ProvisionType } from '../control/server-side.js';
import { expectStored, json, op, raw, type Body } from './kit.js';
import { TB_500 } from './patterns.js';

const NOT_FOUND = { errorMsg: 'Provision data was not found!', status: 'NOT_FOUND' };
const FAILURE = { errorMsg: 'Failed to provision device!', status: 'FAILURE' };

/** A provisioning profile; `name` tells apart the profiles of one case. */
async function profile(t: CaseRun, type: ProvisionType, name = 'profile'): Promise<{ key: string; secret: string; profileId: string }> {
  const key = `key-${randomToken(16)}`;
  const secret = `secret-${randomToken(16)}`;
  return { key, secret, profileId: await t.control.createProvisionProfile(`${t.unique}-${name}`, type, key, secret) };
}

/** Provisions; a device created under that name is deleted after the case (even if it should not exist). */
async function provision(t: CaseRun, body: Record<string, unknown>): Promise<Reply> {
  const reply = await t.device(op.provision(json(body)));
  if (typeof body.deviceName === 'string' && t.devices.every((d) => d.name !== body.deviceName)) await t.control.adoptDeviceByName(body.deviceName);
  return reply;
}

/**
 * A refused request: the answer, and a failure when a device of that name exists afterwards (the
 * reply came after the decision, so the read is not early). Such a device is still removed after
 * the case, once the failure is recorded.
 */
async function provisionRefused(t: CaseRun, body: Record<string, unknown>): Promise<Reply> {
  const reply = await t.device(op.provision(json(body)));
  const created = await t.control.deviceByName(body.deviceName as string);
  if (created) {
    t.expect({ check: 'refusedProvisioningCreatedNothing', expected: `no device named ${String(body.deviceName)}`, actual: { id: created.id.id, name: created.name } });
    t.cleanup(() => t.control.deleteDevice(created.id.id));
  }
  return reply;
}

function succeeded(reply: Reply): Failure | undefined {
  const body = reply.json;
  const ok = reply.status === 200 && isObject(body) && body.status === 'SUCCESS' && body.credentialsType === 'ACCESS_TOKEN' && typeof body.credentialsValue === 'string';
  return ok ? undefined : { check: 'provisionSucceeded', expected: '200 {"status": "SUCCESS", "credentialsType": "ACCESS_TOKEN", "credentialsValue": <token>}', actual: `${reply.status} ${reply.text.slice(0, 200)}` };
}

function refused(reply: Reply, why: string): Failure | undefined {
  const success = isObject(reply.json) && reply.json.status === 'SUCCESS';
  return success ? { check: 'provisionRefused', expected: `no SUCCESS (${why})`, actual: reply.json } : undefined;
}

interface Outcome {
  id: string;
  title: string;
  requirement: string;
  type: ProvisionType;
  expected: Record<string, unknown> | ((t: CaseRun) => Record<string, unknown>);
  body: (p: { key: string; secret: string }, t: CaseRun) => Promise<Record<string, unknown>>;
}

function outcomeCase(c: Outcome): Case {
  return {
    id: c.id,
    title: c.title,
    requirement: c.requirement,
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const p = await profile(t, c.type);
      const expected = typeof c.expected === 'function' ? c.expected(t) : c.expected;
      t.expect(...checkAll(await provision(t, await c.body(p, t)), statusIs(200), bodyEquals(expected)));
    },
  };
}

function badRequest(id: string, title: string, body: Body): Case {
  return {
    id,
    title,
    requirement: 'An invalid body is answered 400 (specification, Errors); provisionDeviceKey and provisionDeviceSecret are part of the request (specification, Provision request).',
    severity: 'MUST',
    async run(t) {
      t.expect(...checkAll(await t.device(op.provision(body)), noting(TB_500, statusIs(400)), should(isErrorBody(400))));
    },
  };
}

export const provisionCases: Case[] = [
  {
    id: '9.1.1',
    title: 'ALLOW_CREATE_NEW_DEVICES: a new device is created and its token works',
    requirement: 'A new device is provisioned through a provisioning request (specification); the answer carries its credentials (ThingsBoard: status SUCCESS, ACCESS_TOKEN, credentialsValue).',
    severity: 'MUST',
    control: true,
    async run(t) {
      const p = await profile(t, 'ALLOW_CREATE_NEW_DEVICES');
      const reply = await provision(t, { deviceName: `${t.unique}-new`, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret });
      t.expect(succeeded(reply));
      const token = isObject(reply.json) ? reply.json.credentialsValue : undefined;
      if (typeof token === 'string') t.expect(statusIsSuccess()(await t.device(op.telemetry(token, json({ provisioned: true })))));
    },
  },
  {
    id: '9.1.2',
    title: 'CHECK_PRE_PROVISIONED_DEVICES: the existing device\'s token is returned',
    requirement: 'ThingsBoard answers a pre-provisioned device in the profile with SUCCESS and the credentials it already has.',
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const p = await profile(t, 'CHECK_PRE_PROVISIONED_DEVICES');
      const device = await t.control.createDevice(`${t.unique}-pre`, { profileId: p.profileId });
      const reply = await provision(t, { deviceName: device.name, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret });
      t.expect(succeeded(reply), valueEquals('credentialsValueIsTheDevicesToken', isObject(reply.json) ? reply.json.credentialsValue : undefined, device.token));
    },
  },
  {
    id: '9.3.1',
    title: 'a wrong secret does not provision',
    requirement: 'provisionDeviceSecret authenticates the request (specification, Authentication 3): a wrong secret creates nothing (ThingsBoard: 200 NOT_FOUND).',
    severity: 'MUST',
    control: true,
    async run(t) {
      const p = await profile(t, 'ALLOW_CREATE_NEW_DEVICES');
      const reply = await provisionRefused(t, { deviceName: `${t.unique}-intruder`, provisionDeviceKey: p.key, provisionDeviceSecret: `${p.secret}x` });
      t.expect(refused(reply, 'wrong secret'), ...checkAll(reply, should(statusIs(200)), should(bodyEquals(NOT_FOUND))));
    },
  },
  {
    id: '9.3.2',
    title: 'an unknown provision key does not provision',
    requirement: 'provisionDeviceKey names the provisioning configuration (specification, Authentication 3): an unknown key provisions nothing (ThingsBoard: 200 NOT_FOUND).',
    severity: 'MUST',
    async run(t) {
      const reply = await t.device(op.provision(json({ deviceName: `${t.unique}-nokey`, provisionDeviceKey: `unknown-${randomToken()}`, provisionDeviceSecret: 'whatever' })));
      t.expect(refused(reply, 'unknown key'), ...checkAll(reply, should(statusIs(200)), should(bodyEquals(NOT_FOUND))));
    },
  },
  outcomeCase({
    id: '9.6.1',
    title: 'a profile with provisioning DISABLED answers NOT_FOUND',
    requirement: 'ThingsBoard answers 200 {"errorMsg": "Provision data was not found!", "status": "NOT_FOUND"} when the profile does not allow provisioning.',
    type: 'DISABLED',
    expected: NOT_FOUND,
    body: async (p, t) => ({ deviceName: `${t.unique}-off`, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret }),
  }),
  outcomeCase({
    id: '9.6.2',
    title: 'ALLOW_CREATE_NEW_DEVICES with a name that exists answers FAILURE',
    requirement: 'ThingsBoard answers 200 {"errorMsg": "Failed to provision device!", "status": "FAILURE"} when the device name is taken.',
    type: 'ALLOW_CREATE_NEW_DEVICES',
    expected: FAILURE,
    body: async (p, t) => ({ deviceName: (await t.control.createDevice(`${t.unique}-taken`)).name, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret }),
  }),
  {
    id: '9.6.3',
    title: 'a second pre-provisioning of the same device answers FAILURE',
    requirement: 'ThingsBoard marks a pre-provisioned device provisioned; provisioning it again answers 200 FAILURE.',
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const p = await profile(t, 'CHECK_PRE_PROVISIONED_DEVICES');
      const device = await t.control.createDevice(`${t.unique}-once`, { profileId: p.profileId });
      const body = { deviceName: device.name, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret };
      t.expect(succeeded(await provision(t, body)));
      t.expect(...checkAll(await provision(t, body), statusIs(200), bodyEquals(FAILURE)));
    },
  },
  {
    id: '9.6.4',
    title: 'a token given in the request becomes the device\'s token',
    requirement: 'ThingsBoard stores the access token a provisioning request carries in token (else it generates one).',
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const p = await profile(t, 'ALLOW_CREATE_NEW_DEVICES');
      const token = `prov${randomToken(16)}`;
      const reply = await provision(t, { deviceName: `${t.unique}-own`, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret, credentialsType: 'ACCESS_TOKEN', token });
      t.expect(succeeded(reply), valueEquals('credentialsValueIsTheGivenToken', isObject(reply.json) ? reply.json.credentialsValue : undefined, token));
      t.expect(statusIs(200)(await t.device(op.telemetry(token, json({ own: 1 })))));
    },
  },
  {
    id: '9.3.3',
    title: 'a refused provisioning is answered 200 with a status, not an error status',
    requirement: 'Provisioning has no token (specification, Authentication 3), so a refusal is not 401; a well-formed request is not 400 or 5xx: the device reads the outcome from the body (ThingsBoard: 200 {"status": "NOT_FOUND"}).',
    severity: 'MUST',
    async run(t) {
      const reply = await t.device(op.provision(json({ deviceName: `${t.unique}-refused`, provisionDeviceKey: `unknown-${randomToken()}`, provisionDeviceSecret: 'whatever' })));
      const status = isObject(reply.json) ? reply.json.status : undefined;
      t.expect(statusIs(200)(reply), isTrue('refusalHasAStatus', typeof status === 'string' && status !== 'SUCCESS', 'a status such as NOT_FOUND or FAILURE', reply.json ?? reply.text.slice(0, 200)));
    },
  },
  {
    id: '9.6.5',
    title: 'a provisioned device carries the server attribute provisionState = "provisioned"',
    requirement: 'ThingsBoard saves the SERVER_SCOPE attribute provisionState="provisioned" on every device it provisions, created or pre-provisioned (DeviceProvisionServiceImpl.saveProvisionStateAttribute).',
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const created = await profile(t, 'ALLOW_CREATE_NEW_DEVICES');
      const name = `${t.unique}-state`;
      t.expect(succeeded(await provision(t, { deviceName: name, provisionDeviceKey: created.key, provisionDeviceSecret: created.secret })));
      const device = await t.control.deviceByName(name);
      const pre = await profile(t, 'CHECK_PRE_PROVISIONED_DEVICES', 'pre');
      const existing = await t.control.createDevice(`${t.unique}-prestate`, { profileId: pre.profileId });
      t.expect(succeeded(await provision(t, { deviceName: existing.name, provisionDeviceKey: pre.key, provisionDeviceSecret: pre.secret })));
      for (const id of [device?.id.id, existing.id]) {
        if (id) await expectStored(t, () => t.control.getAttributes(id, 'SERVER_SCOPE', ['provisionState']), (found) => [attributesInclude(found, { provisionState: 'provisioned' })]);
      }
    },
  },
  outcomeCase({
    id: '9.6.6',
    title: 'MQTT_BASIC credentials in the request: SUCCESS with them as a JSON object',
    requirement: 'ThingsBoard creates the device with the MQTT basic credentials the request carries and answers them as {"clientId","userName","password"} (DeviceServiceImpl.saveDevice(ProvisionRequest), JsonConverter.toJson(ProvisionDeviceResponseMsg)).',
    type: 'ALLOW_CREATE_NEW_DEVICES',
    body: async (p, t) => ({ deviceName: `${t.unique}-mqtt`, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret, credentialsType: 'MQTT_BASIC', clientId: `c-${t.unique}`, username: `u-${t.unique}`, password: 'p1' }),
    expected: (t) => ({ credentialsValue: { clientId: `c-${t.unique}`, userName: `u-${t.unique}`, password: 'p1' }, credentialsType: 'MQTT_BASIC', status: 'SUCCESS' }),
  }),
  outcomeCase({
    id: '9.6.7',
    title: 'an X.509 certificate in the request: SUCCESS with credentialsType X509_CERTIFICATE and the certificate',
    requirement: 'ThingsBoard creates the device with the X.509 credentials of the request\'s hash (the certificate) and answers them (CoapProvisionJsonDeviceTest, MqttProvisionJsonDeviceTest).',
    type: 'ALLOW_CREATE_NEW_DEVICES',
    body: async (p, t) => ({ deviceName: `${t.unique}-x509`, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret, credentialsType: 'X509_CERTIFICATE', hash: `cert${t.unique}` }),
    expected: (t) => ({ credentialsValue: `cert${t.unique}`, credentialsType: 'X509_CERTIFICATE', status: 'SUCCESS' }),
  }),
  {
    id: '9.6.8',
    title: 'gateway: true makes the new device a gateway (additionalInfo.gateway)',
    requirement: 'ThingsBoard sets additionalInfo.gateway=true on a device provisioned with "gateway": true (DeviceServiceImpl.saveDevice(ProvisionRequest)).',
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const p = await profile(t, 'ALLOW_CREATE_NEW_DEVICES');
      const names = { gateway: `${t.unique}-gw`, plain: `${t.unique}-plain` };
      t.expect(succeeded(await provision(t, { deviceName: names.gateway, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret, gateway: true })));
      t.expect(succeeded(await provision(t, { deviceName: names.plain, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret })));
      const gateway = await t.control.deviceByName(names.gateway);
      const plain = await t.control.deviceByName(names.plain);
      const flag = (d: typeof gateway) => (isObject(d?.additionalInfo) ? d.additionalInfo.gateway === true : false);
      t.expect(valueEquals('gatewayFlags', { gateway: flag(gateway), plain: flag(plain) }, { gateway: true, plain: false }));
    },
  },
  outcomeCase({
    id: '9.6.9',
    title: 'CHECK_PRE_PROVISIONED_DEVICES with a device of another profile answers FAILURE',
    requirement: 'ThingsBoard provisions a pre-provisioned device only when it belongs to the profile of the key; else 200 FAILURE.',
    type: 'CHECK_PRE_PROVISIONED_DEVICES',
    expected: FAILURE,
    body: async (p, t) => ({ deviceName: (await t.control.createDevice(`${t.unique}-other`)).name, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret }),
  }),
  {
    id: '9.6.10',
    title: 'the device name is trimmed: spaces around it are dropped, a blank name answers FAILURE',
    requirement: 'ThingsBoard trims deviceName before use, and refuses a name that is blank after trimming with 200 FAILURE (DeviceProvisionServiceImpl.provisionDevice).',
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const p = await profile(t, 'ALLOW_CREATE_NEW_DEVICES');
      const name = `${t.unique}-trim`;
      t.expect(succeeded(await provision(t, { deviceName: `  ${name}  `, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret })));
      const device = await t.control.adoptDeviceByName(name);
      t.expect(isTrue('trimmedNameCreated', device !== undefined, `a device named "${name}"`, 'none'));
      t.expect(...checkAll(await provisionRefused(t, { deviceName: '   ', provisionDeviceKey: p.key, provisionDeviceSecret: p.secret }), statusIs(200), bodyEquals(FAILURE)));
    },
  },
  {
    id: '9.6.11',
    title: 'an empty provisionDeviceKey or provisionDeviceSecret answers NOT_FOUND',
    requirement: 'ThingsBoard answers 200 NOT_FOUND when the key or the secret is empty (DeviceProvisionServiceImpl.provisionDevice: StringUtils.isEmpty).',
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const p = await profile(t, 'ALLOW_CREATE_NEW_DEVICES');
      for (const [key, secret] of [['', p.secret], [p.key, '']]) {
        const reply = await provisionRefused(t, { deviceName: `${t.unique}-empty`, provisionDeviceKey: key, provisionDeviceSecret: secret });
        t.expect(...checkAll(reply, statusIs(200), bodyEquals(NOT_FOUND)));
      }
    },
  },
  {
    id: '9.6.12',
    title: 'a credentials type without credential data gets a generated access token; MQTT_BASIC with a password but no user name answers FAILURE',
    requirement: 'ThingsBoard uses the requested credentials type only when the request carries credential data (token, hash, username, password or clientId), else it generates an access token (DeviceServiceImpl.saveDevice(ProvisionRequest)); MQTT basic credentials with a password need a user name (DeviceCredentialsServiceImpl), so the provisioning fails and no device is created.',
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const p = await profile(t, 'ALLOW_CREATE_NEW_DEVICES');
      for (const credentialsType of ['X509_CERTIFICATE', 'MQTT_BASIC']) {
        const reply = await provision(t, { deviceName: `${t.unique}-${credentialsType}`, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret, credentialsType });
        t.expect(succeeded(reply));
        const token = isObject(reply.json) ? reply.json.credentialsValue : undefined;
        if (typeof token === 'string') t.expect(statusIs(200)(await t.device(op.telemetry(token, json({ generated: 1 })))));
      }
      const refusedReply = await provisionRefused(t, { deviceName: `${t.unique}-nouser`, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret, credentialsType: 'MQTT_BASIC', clientId: `c-${t.unique}`, password: 'p' });
      t.expect(...checkAll(refusedReply, statusIs(200), bodyEquals(FAILURE)));
    },
  },
  outcomeCase({
    id: '9.6.13',
    title: 'CHECK_PRE_PROVISIONED_DEVICES without a deviceName answers FAILURE',
    requirement: 'ThingsBoard looks the pre-provisioned device up by name; without a name it finds none and answers 200 FAILURE (DeviceProvisionServiceImpl.provisionDevice).',
    type: 'CHECK_PRE_PROVISIONED_DEVICES',
    expected: FAILURE,
    body: async (p) => ({ provisionDeviceKey: p.key, provisionDeviceSecret: p.secret }),
  }),
  {
    id: '9.6.14',
    title: 'a requested token that another device has answers FAILURE and creates nothing',
    requirement: 'ThingsBoard refuses credentials already assigned to another device, and the provisioning answers 200 FAILURE (processCreateDevice catches the error).',
    severity: 'SHOULD',
    devices: 1,
    control: true,
    async run(t) {
      const p = await profile(t, 'ALLOW_CREATE_NEW_DEVICES');
      const reply = await provisionRefused(t, { deviceName: `${t.unique}-stolen`, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret, credentialsType: 'ACCESS_TOKEN', token: t.devices[0].token });
      t.expect(...checkAll(reply, statusIs(200), bodyEquals(FAILURE)));
    },
  },
  outcomeCase({
    id: '9.6.15',
    title: 'X.509 requested with other credential data but no hash: SUCCESS with an empty certificate',
    requirement: 'ThingsBoard reads an absent hash as "" (JsonConverter.getStrValue) and, since the request carries credential data (a clientId), creates X.509 credentials from that empty certificate (DeviceServiceImpl.saveDevice(ProvisionRequest)).',
    type: 'ALLOW_CREATE_NEW_DEVICES',
    body: async (p, t) => ({ deviceName: `${t.unique}-nohash`, provisionDeviceKey: p.key, provisionDeviceSecret: p.secret, credentialsType: 'X509_CERTIFICATE', clientId: `c-${t.unique}` }),
    expected: { credentialsValue: '', credentialsType: 'X509_CERTIFICATE', status: 'SUCCESS' },
  }),
  badRequest('9.2.1', 'a request without provisionDeviceSecret is 400', json({ deviceName: 'x', provisionDeviceKey: 'k' })),
  badRequest('9.2.2', 'malformed JSON is 400', raw('{"provisionDeviceKey": ')),
];
