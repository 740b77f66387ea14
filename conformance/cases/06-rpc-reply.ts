// Operation 6: POST /api/v1/{token}/rpc/{id} (the device's reply to a server-side command).
import type { Case, CaseRun } from '../case.js';
import type { Failure } from '../verdict.js';
import { bodyEquals, bodyIsEmpty, bodyTextIs, checkAll, noting, should, statusIs, statusIsSuccess, type Check } from '../checks.js';
import { commandDuringPoll, deliveredCommand } from './05-rpc-poll.js';
import { json, op, raw, type Body } from './kit.js';
import { invalidInput } from './patterns.js';

/** ThingsBoard's default payload limit for /api/v1/*\/rpc/**. */
export const RPC_PAYLOAD_LIMIT = 65_536;

/** A JSON document of exactly `bytes` bytes. */
export function jsonOfSize(bytes: number): string {
  const frame = '{"pad":""}';
  return `{"pad":"${'x'.repeat(bytes - frame.length)}"}`;
}

const REPLY = { result: 'ok', temperature: 21.5, list: [1, 'two', null] };

/** Command → poll → reply with the id delivered → the REST caller gets the reply. */
async function roundTrip(t: CaseRun, version: 1 | 2, reply: Body = json(REPLY), arrived: Check = bodyEquals(REPLY)): Promise<(Failure | undefined)[]> {
  const [d] = t.devices;
  const command = { method: 'getState', params: { want: ['temperature'] } };
  const result = await commandDuringPoll(t, d, command, 'twoway', version);
  const delivered = deliveredCommand(result, command);
  if (!result.reply || delivered.some(Boolean)) return delivered;
  const id = (result.reply.json as { id: number | string }).id;
  const answer = await t.device(op.rpcReply(d.token, id, reply));
  const rest = await result.rest;
  const lost = `the REST caller (sendRpcV${version}) did not get the device's reply`;
  return [
    statusIsSuccess()(answer),
    ...checkAll(answer, should(statusIs(200)), should(bodyIsEmpty())),
    ...checkAll(rest, noting(lost, statusIs(200)), noting(lost, arrived)),
  ];
}

export const rpcReplyCases: Case[] = [
  {
    id: '6.1.1',
    title: 'two-way RPC: the reply posted to rpc/{id} reaches the REST caller (v1)',
    requirement: 'The device replies to the command received through operation 5 at rpc/<id> with that integer id, and the server side gets the reply (specification, operations 5 and 6, rule 5).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      t.expect(...(await roundTrip(t, 1)));
    },
  },
  {
    id: '6.6.1',
    title: 'two-way RPC round trip through the v2 REST API',
    requirement: 'ThingsBoard\'s /api/rpc/twoway/{deviceId} answers with the device\'s reply like v1.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      t.expect(...(await roundTrip(t, 2)));
    },
  },
  {
    id: '6.6.2',
    title: 'a reply to an unknown id is answered 200 and dropped',
    requirement: 'ThingsBoard answers 200 with an empty body for a reply whose id is unknown or already answered.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      t.expect(...checkAll(await t.device(op.rpcReply(t.devices[0].token, 987654, json({ late: true }))), statusIs(200), bodyIsEmpty()));
    },
  },
  {
    id: '6.5.1',
    title: `a reply larger than ${RPC_PAYLOAD_LIMIT} bytes is 413`,
    requirement: `ThingsBoard rejects a body above the payload limit of /api/v1/*/rpc/** (${RPC_PAYLOAD_LIMIT} bytes by default) with 413.`,
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const reply = await t.device(op.rpcReply(t.devices[0].token, 1, raw(jsonOfSize(RPC_PAYLOAD_LIMIT + 1))));
      t.expect(statusIs(413)(reply));
    },
  },
  {
    id: '6.6.3',
    title: `a reply of exactly ${RPC_PAYLOAD_LIMIT} bytes is accepted`,
    requirement: 'ThingsBoard rejects only a Content-Length strictly above the limit; a body at the limit is accepted.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      t.expect(statusIs(200)(await t.device(op.rpcReply(t.devices[0].token, 1, raw(jsonOfSize(RPC_PAYLOAD_LIMIT))))));
    },
  },
  invalidInput({
    id: '6.2.1',
    title: 'a request id that is not an integer is 400',
    requirement: '<id> is the integer id of the RPC request (specification, rule 5); an invalid URL is 400 (specification, Errors).',
    request: (k) => op.rpcReply(k, 'abc', json({ ok: true })),
  }),
  invalidInput({
    id: '6.2.2',
    title: 'a reply that is not JSON is 400',
    requirement: 'The reply is a JSON document (specification, operation 6); an invalid body is 400 (specification, Errors).',
    thingsboard: 'ThingsBoard passes the reply on unparsed (200) and its REST caller gets 406',
    request: (k) => op.rpcReply(k, 1, raw('{"result": ok}')),
  }),
  {
    id: '6.6.4',
    title: 'the reply reaches the REST caller unchanged: 1.0 stays 1.0, big integers keep every digit',
    requirement: 'ThingsBoard passes the device\'s reply on as JSON text (AbstractRpcController.reply), so {"v":12345678901234567890,"d":1.0} arrives unchanged.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const reply = '{"v":12345678901234567890,"d":1.0}';
      t.expect(...(await roundTrip(t, 1, raw(reply), bodyTextIs(reply))));
    },
  },
];
