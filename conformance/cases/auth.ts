// Credentials (group 3): every operation with a token in its path answers an unknown token 401,
// a deleted device's token stops working, and (ThingsBoard) binding errors come before the token.
import type { Case } from '../case.js';
import { statusIs } from '../checks.js';
import { json, op, raw } from './kit.js';
import { badToken, bindsBeforeToken } from './patterns.js';

export const authCases: Case[] = [
  badToken('1.3.1', 'telemetry upload', (k) => op.telemetry(k, json({ temperature: 1 }))),
  badToken('2.3.1', 'attributes upload', (k) => op.postAttributes(k, json({ a: 1 }))),
  badToken('3.3.1', 'attributes read', (k) => op.getAttributes(k, 'clientKeys=a')),
  badToken('4.3.1', 'attribute update poll', (k) => op.attributeUpdates(k, 1000)),
  badToken('5.3.1', 'RPC poll', (k) => op.rpcPoll(k, 1000)),
  badToken('6.3.1', 'RPC reply', (k) => op.rpcReply(k, 1, json({ ok: true }))),
  badToken('7.3.1', 'device-side RPC', (k) => op.clientRpc(k, json({ method: 'getCurrentTime', params: {} }))),
  badToken('8.3.2', 'claim', (k) => op.claim(k, json({ secretKey: 'k' }))),
  badToken('10.3.1', 'firmware download', (k) => op.firmware(k, { title: 't', version: 'v' })),
  badToken('10.3.2', 'software download', (k) => ({ ...op.firmware(k, { title: 't', version: 'v' }), path: op.path(k, 'software'), operationId: 'getSoftware' })),
  {
    id: '1.3.2',
    title: 'the token of a deleted device is 401',
    requirement: 'A token stops being valid when its device is deleted; an invalid token is 401 (specification, Authentication 4).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      t.expect(statusIs(200)(await t.device(op.telemetry(d.token, json({ before: 1 })))));
      await t.control.deleteDevice(d.id);
      t.expect(statusIs(401)(await t.device(op.telemetry(d.token, json({ after: 1 })))));
    },
  },
  bindsBeforeToken('1.3.4', 'a telemetry upload without a body', (k) => op.telemetry(k, undefined), (k) => op.telemetry(k, raw('not JSON'))),
  bindsBeforeToken('4.3.3', 'an attribute poll with timeout=xyz', (k) => op.attributeUpdates(k, 'xyz'), (k) => op.attributeUpdates(k, 500)),
];
