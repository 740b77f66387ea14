// Operation 9: POST /api/v1/provision (no token; key and secret of a device profile in the body).
import type { Case, CaseRun, Failure } from '../case.js';
import type { Reply } from '../client.js';
import { bodyEquals, checkAll, isErrorBody, isObject, isTrue, noting, should, statusIs, statusIsSuccess, valueEquals } from '../checks.js';
import { randomToken } from '../control/index.js';
import type { ProvisionType } from '../control/server-side.js';
import { json, op, raw, type Body } from './kit.js';
import { TB_500 } from './patterns.js';

const NOT_FOUND = { errorMsg: 'Provision data was not found!', status: 'NOT_FOUND' };
const FAILURE = { errorMsg: 'Failed to provision device!', status: 'FAILURE' };

async function profile(t: CaseRun, type: ProvisionType): Promise<{ key: string; secret: string; profileId: string }> {
  const key = `key-${randomToken(16)}`;
  const secret = `secret-${randomToken(16)}`;
  return { key, secret, profileId: await t.control.createProvisionProfile(`${t.unique}-profile`, type, key, secret) };
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

function outcomeCase(c: { id: string; title: string; requirement: string; type: ProvisionType; expected: Record<string, string>; body: (p: { key: string; secret: string }, t: CaseRun) => Promise<Record<string, unknown>> }): Case {
  return {
    id: c.id,
    title: c.title,
    requirement: c.requirement,
    severity: 'SHOULD',
    control: true,
    async run(t) {
      const p = await profile(t, c.type);
      t.expect(...checkAll(await provision(t, await c.body(p, t)), statusIs(200), bodyEquals(c.expected)));
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
  badRequest('9.2.1', 'a request without provisionDeviceSecret is 400', json({ deviceName: 'x', provisionDeviceKey: 'k' })),
  badRequest('9.2.2', 'malformed JSON is 400', raw('{"provisionDeviceKey": ')),
];
