// Operation 8: POST /api/v1/{token}/claim, finished by a customer user claiming the device by name.
import type { Case, CaseRun } from '../case.js';
import type { Failure } from '../verdict.js';
import type { Reply } from '../client.js';
import { bodyEquals, bodyIsEmpty, checkAll, isObject, isTrue, noting, should, statusIs, statusIsSuccess, valueEquals } from '../checks.js';
import { json, op, raw, type Body } from './kit.js';
import { invalidInput, TB_500 } from './patterns.js';

/** The device opens a claim window; a new customer user claims the device with `secretKey`. */
async function claimFlow(t: CaseRun, body: Body, secretKey: string, beforeClaim?: () => Promise<void>): Promise<{ device: Reply; claim: Reply; jwt: string; customerId: string }> {
  const [d] = t.devices;
  const device = await t.device(op.claim(d.token, body));
  await beforeClaim?.();
  const { jwt, customerId } = await t.control.createCustomerUser(`${t.unique}-customer`);
  return { device, claim: await t.control.claimDevice(d.name, secretKey, jwt), jwt, customerId };
}

/** The device's owner as the control API reads it back. */
async function ownerOf(t: CaseRun): Promise<string | undefined> {
  const owner = (await t.control.getDevice(t.devices[0].id)).customerId;
  return isObject(owner) && typeof owner.id === 'string' ? owner.id : undefined;
}

function claimSucceeded(claim: Reply): Failure | undefined {
  const ok = claim.status === 200 && isObject(claim.json) && claim.json.response === 'SUCCESS';
  return ok ? undefined : { check: 'claimSucceeded', expected: '200 {"device": {...}, "response": "SUCCESS"}', actual: `${claim.status} ${claim.text.slice(0, 200)}` };
}

function claimRefused(claim: Reply, why: string): Failure | undefined {
  const refused = !(claim.status === 200 && isObject(claim.json) && claim.json.response === 'SUCCESS');
  return refused ? undefined : { check: 'claimRefused', expected: `no SUCCESS (${why})`, actual: `${claim.status} ${claim.text.slice(0, 200)}` };
}

export const claimCases: Case[] = [
  {
    id: '8.1.1',
    title: 'claim with secretKey and durationMs, then a customer claims with that key',
    requirement: 'A device starts claiming with secretKey and durationMs (specification, operation 8); a customer user who gives that key within the window owns the device (ThingsBoard REST claim).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const { device, claim } = await claimFlow(t, json({ secretKey: 's3cret-Key', durationMs: 60_000 }), 's3cret-Key');
      t.expect(statusIsSuccess()(device), ...checkAll(device, should(statusIs(200)), should(bodyIsEmpty())), claimSucceeded(claim));
    },
  },
  {
    id: '8.1.2',
    title: 'both fields are optional: {} opens a window with the empty secret',
    requirement: 'secretKey (default: empty string) and durationMs (default: device.claim.duration) are optional (specification, Claim request).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const { device, claim } = await claimFlow(t, json({}), '');
      t.expect(statusIsSuccess()(device), claimSucceeded(claim));
    },
  },
  {
    id: '8.6.1',
    title: 'a claim request without a body is accepted',
    requirement: 'ThingsBoard accepts /claim with no body at all (secretKey "", default duration).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const { device, claim } = await claimFlow(t, undefined, '');
      t.expect(statusIs(200)(device), claimSucceeded(claim));
    },
  },
  {
    id: '8.5.1',
    title: 'a claim after durationMs has elapsed fails',
    requirement: 'durationMs bounds the claim window (specification, Claim request and Limits): once it has elapsed, claiming fails (ThingsBoard: 400 "FAILURE").',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const { device, claim } = await claimFlow(t, json({ secretKey: 'late', durationMs: 300 }), 'late', () => t.wait(900));
      t.expect(statusIsSuccess()(device), claimRefused(claim, 'the window of 300 ms closed 600 ms earlier'), ...checkAll(claim, should(statusIs(400)), should(bodyEquals('FAILURE'))));
    },
  },
  {
    id: '8.3.1',
    title: 'a claim with the wrong secret key fails',
    requirement: 'Only the secretKey the device gave opens its claim (specification, Claim request; ThingsBoard: 400 "FAILURE").',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const { device, claim } = await claimFlow(t, json({ secretKey: 'right', durationMs: 60_000 }), 'wrong');
      t.expect(statusIsSuccess()(device), claimRefused(claim, 'wrong secret key'), ...checkAll(claim, should(statusIs(400)), should(bodyEquals('FAILURE'))));
    },
  },
  {
    id: '8.6.2',
    title: 'claiming a device that a customer owns is 400 "CLAIMED"',
    requirement: 'ThingsBoard answers a claim of a device already owned by a customer 400 with the JSON string "CLAIMED".',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const { claim, jwt } = await claimFlow(t, json({ secretKey: 'twice', durationMs: 60_000 }), 'twice');
      t.expect(claimSucceeded(claim));
      const again = await t.control.claimDevice(t.devices[0].name, 'twice', jwt);
      t.expect(...checkAll(again, noting('the second claim of an owned device', statusIs(400)), bodyEquals('CLAIMED')));
    },
  },
  {
    id: '8.1.3',
    title: 'a successful claim makes the claiming customer the owner',
    requirement: 'Claiming assigns the device to the customer who gives the secret key within the window (specification, operation 8; ThingsBoard REST claim): the device then reads back owned by that customer.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const { claim, customerId } = await claimFlow(t, json({ secretKey: 'owner-key', durationMs: 60_000 }), 'owner-key');
      t.expect(claimSucceeded(claim), valueEquals('ownerIsTheClaimingCustomer', await ownerOf(t), customerId));
    },
  },
  {
    id: '8.3.3',
    title: 'a device that never opened a claim window cannot be claimed',
    requirement: 'Claiming starts with the device\'s claim request (specification, operation 8): without one, a customer\'s claim fails and the owner stays unchanged.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const { jwt, customerId } = await t.control.createCustomerUser(`${t.unique}-customer`);
      const claim = await t.control.claimDevice(t.devices[0].name, '', jwt);
      const owner = await ownerOf(t);
      t.expect(claimRefused(claim, 'the device opened no claim window'), isTrue('ownerUnchanged', owner !== customerId, 'not owned by the customer', owner));
    },
  },
  {
    id: '8.6.3',
    title: 'a second claim request while a window is open keeps the first window and its key',
    requirement: 'ThingsBoard caches the first claiming info of a device while it lasts (ClaimDevicesServiceImpl: putIfAbsent); a later request does not replace its secret.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const { claim, device } = await claimFlow(t, json({ secretKey: 'first', durationMs: 60_000 }), 'first', async () => {
        t.expect(statusIsSuccess()(await t.device(op.claim(d.token, json({ secretKey: 'second', durationMs: 60_000 })))));
      });
      t.expect(statusIsSuccess()(device), claimSucceeded(claim));
    },
  },
  {
    id: '8.6.4',
    title: 'a zero or negative durationMs opens a window of the server\'s default length',
    requirement: 'ThingsBoard uses its configured claim duration when durationMs is absent, zero or negative (ClaimDevicesServiceImpl), so the window is open right after the request.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const { device, claim } = await claimFlow(t, json({ secretKey: 'negative', durationMs: -60_000 }), 'negative');
      t.expect(statusIsSuccess()(device), claimSucceeded(claim));
    },
  },
  {
    id: '8.6.5',
    title: 'a claim request of a device a customer owns opens no window: once given up, its key claims nothing',
    requirement: 'ThingsBoard keeps no claiming info for a device that already has a customer (ClaimDevicesServiceImpl.registerClaimingInfo), so after the owner gives it up the key of that request does not claim it.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const { claim, jwt } = await claimFlow(t, json({ secretKey: 'owned', durationMs: 60_000 }), 'owned');
      const notOwned = claimSucceeded(claim);
      if (notOwned) return t.expect(notOwned);
      t.expect(statusIsSuccess()(await t.device(op.claim(d.token, json({ secretKey: 'while-owned', durationMs: 60_000 })))));
      await t.control.reclaimDevice(d.name, jwt);
      const other = await t.control.createCustomerUser(`${t.unique}-other`);
      t.expect(claimRefused(await t.control.claimDevice(d.name, 'while-owned', other.jwt), 'the key came while the device was owned'));
    },
  },
  {
    id: '8.6.6',
    title: 'an expired window stays until a claim attempt fails: a request meanwhile opens none, one after the failure does',
    requirement: 'ThingsBoard caches the claiming info for a day whatever durationMs says (ClaimDevicesServiceImpl: putIfAbsent; claimDevices cache TTL 1440 min) and evicts it when a claim fails, so a device must ask again after a failed claim of an expired window.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const request = (secretKey: string, durationMs: number) => t.device(op.claim(d.token, json({ secretKey, durationMs })));
      t.expect(statusIsSuccess()(await request('expired', 300)));
      await t.wait(900);
      t.expect(statusIsSuccess()(await request('renewed', 60_000)));
      const { jwt } = await t.control.createCustomerUser(`${t.unique}-customer`);
      const kept = await t.control.claimDevice(d.name, 'renewed', jwt);
      t.expect(claimRefused(kept, 'the expired window was still cached, so the second request opened none'), ...checkAll(kept, bodyEquals('FAILURE')));
      t.expect(statusIsSuccess()(await request('renewed', 60_000)));
      t.expect(claimSucceeded(await t.control.claimDevice(d.name, 'renewed', jwt)));
    },
  },
  invalidInput({ id: '8.2.1', title: 'malformed JSON is 400', thingsboard: TB_500, request: (k) => op.claim(k, raw('{"secretKey": ')) }),
  invalidInput({
    id: '8.2.2',
    title: 'a durationMs that is not an integer is 400',
    requirement: 'durationMs is an integer of milliseconds (specification, Claim request); a body of another shape is 400.',
    thingsboard: TB_500,
    request: (k) => op.claim(k, json({ secretKey: 'k', durationMs: 'soon' })),
  }),
];
