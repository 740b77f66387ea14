// Operation 3: GET /api/v1/{token}/attributes?clientKeys=..&sharedKeys=..
import type { Case, CaseRun } from '../case.js';
import type { Failure } from '../verdict.js';
import type { Reply } from '../client.js';
import { bodyEquals, bodyHasEntries, bodyLacksKeys, checkAll, isObject, numberTextIs, should, statusIs, statusIsSuccess } from '../checks.js';
import { json, op, raw } from './kit.js';

const CLIENT = { c1: 'one', c2: 2, c3: { deep: [1, { x: true }] } };
const SHARED = { s1: 'uno', s2: 2.5, s3: true };

/** The device uploads CLIENT itself; the server side sets SHARED. */
async function seed(t: CaseRun): Promise<string> {
  const [d] = t.devices;
  t.expect(statusIsSuccess()(await t.device(op.postAttributes(d.token, json(CLIENT)))));
  await t.control.setAttributes(d.id, 'SHARED_SCOPE', SHARED);
  return d.token;
}

/** The found shared attributes are somewhere in the answer (any group but client). */
function sharedFound(reply: Reply, expected: Record<string, unknown>): Failure | undefined {
  const body = isObject(reply.json) ? reply.json : {};
  const groups = Object.entries(body).filter(([name, group]) => name !== 'client' && isObject(group));
  const found = Object.keys(expected).every((k) => groups.some(([, g]) => JSON.stringify((g as Record<string, unknown>)[k]) === JSON.stringify(expected[k])));
  return found ? undefined : { check: 'sharedAttributesReturned', expected, actual: reply.json ?? reply.text };
}

/** No requested-but-missing key shows up in any group, not even as null. */
function notReported(reply: Reply, keys: string[]): Failure | undefined {
  const body = isObject(reply.json) ? reply.json : {};
  const leaks = Object.entries(body).flatMap(([group, g]) => (isObject(g) ? keys.filter((k) => k in g).map((k) => `${group}.${k}=${JSON.stringify(g[k])}`) : []));
  const topLevel = keys.filter((k) => k in body);
  const all = [...leaks, ...topLevel];
  return all.length ? { check: 'missingKeysNotReported', expected: `none of ${keys.join(', ')}`, actual: all } : undefined;
}

/**
 * Uploads client attributes as JSON text (a JavaScript value cannot hold 42.0) and reads them back;
 * the checks look at the response text, where 42.0 and 42 differ.
 */
function numberCase(c: Omit<Case, 'run' | 'devices' | 'severity'> & { sent: string; checks: (r: Reply) => (Failure | undefined)[] }): Case {
  return {
    id: c.id,
    title: c.title,
    requirement: c.requirement,
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      t.expect(statusIsSuccess()(await t.device(op.postAttributes(d.token, raw(c.sent)))));
      const reply = await t.device(op.getAttributes(d.token, 'clientKeys=' + Object.keys(JSON.parse(c.sent) as object).join(',')));
      t.expect(statusIs(200)(reply), ...c.checks(reply));
    },
  };
}

function readCase(c: Omit<Case, 'run' | 'devices'> & { query: string; checks: (r: Reply) => (Failure | undefined)[] }): Case {
  return {
    id: c.id,
    title: c.title,
    requirement: c.requirement,
    severity: c.severity,
    devices: 1,
    async run(t) {
      const reply = await t.device(op.getAttributes(await seed(t), c.query));
      t.expect(statusIsSuccess()(reply), ...c.checks(reply));
    },
  };
}

export const attributeReadCases: Case[] = [
  readCase({
    id: '3.1.1',
    title: 'clientKeys: the found client attributes stand under client',
    requirement: 'The response groups the requested attributes by kind; the client group is the key client (specification, operation 3).',
    severity: 'MUST',
    query: 'clientKeys=c1,c2',
    checks: (r) => [bodyHasEntries({ c1: CLIENT.c1, c2: CLIENT.c2 }, 'client')(r)],
  }),
  readCase({
    id: '3.1.2',
    title: 'sharedKeys: the found shared attributes are returned, under shared',
    requirement: 'The requested shared attributes are returned grouped by kind (specification, operation 3); the group is named shared (ThingsBoard).',
    severity: 'MUST',
    query: 'sharedKeys=s1,s2',
    checks: (r) => [sharedFound(r, { s1: SHARED.s1, s2: SHARED.s2 }), should(bodyHasEntries({ s1: SHARED.s1, s2: SHARED.s2 }, 'shared'))(r)],
  }),
  readCase({
    id: '3.1.3',
    title: 'both lists: both groups are returned',
    requirement: 'With clientKeys and sharedKeys the response holds both groups (specification, operation 3).',
    severity: 'MUST',
    query: 'clientKeys=c1&sharedKeys=s3',
    checks: (r) => [bodyHasEntries({ c1: CLIENT.c1 }, 'client')(r), sharedFound(r, { s3: SHARED.s3 })],
  }),
  readCase({
    id: '3.1.4',
    title: 'requested keys that are not found are not reported',
    requirement: 'Keys that are requested and not found are not reported; only found attributes are returned (specification, rule 2).',
    severity: 'MUST',
    query: 'clientKeys=c1,noSuchClient&sharedKeys=s1,noSuchShared',
    checks: (r) => [notReported(r, ['noSuchClient', 'noSuchShared']), bodyHasEntries({ c1: CLIENT.c1 }, 'client')(r)],
  }),
  readCase({
    id: '3.1.5',
    title: 'values keep their types (long, double, boolean, JSON)',
    requirement: 'Attribute values follow the key-value table and keep their type (specification, Key-value content).',
    severity: 'MUST',
    query: 'clientKeys=c2,c3&sharedKeys=s2,s3',
    checks: (r) => [bodyHasEntries({ c2: 2, c3: CLIENT.c3 }, 'client')(r), sharedFound(r, { s2: 2.5, s3: true })],
  }),
  readCase({
    id: '3.6.1',
    title: 'repeated parameters work like a comma list',
    requirement: 'Devices in the field send sharedKeys=a&sharedKeys=b; ThingsBoard-compatible servers read them as a list.',
    severity: 'SHOULD',
    query: 'clientKeys=c1&clientKeys=c2&sharedKeys=s1&sharedKeys=s3',
    checks: (r) => [bodyHasEntries({ c1: CLIENT.c1, c2: CLIENT.c2 }, 'client')(r), bodyHasEntries({ s1: SHARED.s1, s3: SHARED.s3 }, 'shared')(r)],
  }),
  readCase({
    id: '3.6.2',
    title: 'no keys: every client and shared attribute is returned',
    requirement: 'ThingsBoard returns all client and all shared attributes when neither clientKeys nor sharedKeys is given.',
    severity: 'SHOULD',
    query: '',
    checks: (r) => [bodyEquals({ client: CLIENT, shared: SHARED })(r)],
  }),
  readCase({
    id: '3.6.3',
    title: 'nothing found: {}',
    requirement: 'ThingsBoard omits empty groups, so a request that finds nothing is answered {}.',
    severity: 'SHOULD',
    query: 'clientKeys=nope1&sharedKeys=nope2',
    checks: (r) => [bodyEquals({})(r)],
  }),
  readCase({
    id: '3.6.4',
    title: 'only clientKeys: no shared group',
    requirement: 'ThingsBoard returns only the client group when only clientKeys is given.',
    severity: 'SHOULD',
    query: 'clientKeys=c1',
    checks: (r) => [bodyLacksKeys(['shared'])(r)],
  }),
  readCase({
    id: '3.6.5',
    title: 'unknown parameters are ignored (everything is returned)',
    requirement: 'Some devices send client_keys/shared_keys; ThingsBoard ignores unknown parameters and returns everything.',
    severity: 'SHOULD',
    query: 'client_keys=c1&shared_keys=s1',
    checks: (r) => [bodyEquals({ client: CLIENT, shared: SHARED })(r)],
  }),
  {
    id: '3.6.6',
    title: 'a read with no attributes at all is {}',
    requirement: 'ThingsBoard answers {} when the device has no attributes (empty groups are omitted).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      t.expect(...checkAll(await t.device(op.getAttributes(t.devices[0].token)), statusIs(200), bodyEquals({})));
    },
  },
  numberCase({
    id: '3.6.7',
    title: 'a double sent as 42.0 reads back as 42.0',
    requirement: 'ThingsBoard keeps 42.0 a DOUBLE and prints it as 42.0 (msa HttpClientTest#getAttributes compares JSON nodes, where 42.0 and 42 differ).',
    sent: '{"dbl":42.0,"half":0.5,"nine":9.0,"zero":0.0}',
    checks: (r) => [numberTextIs('dbl', '42.0')(r), numberTextIs('half', '0.5')(r), numberTextIs('nine', '9.0')(r), numberTextIs('zero', '0.0')(r)],
  }),
  numberCase({
    id: '3.6.8',
    title: 'integers keep every digit in the signed 64-bit range; beyond it they are strings',
    requirement: 'ThingsBoard stores integral numbers as LONG (every digit of the signed 64-bit range) and, beyond it, as a STRING of the digits as sent (JsonConverter).',
    sent: '{"max":9223372036854775807,"min":-9223372036854775808,"odd":9007199254740993,"huge":12345678901234567890}',
    checks: (r) => [
      numberTextIs('max', '9223372036854775807')(r),
      numberTextIs('min', '-9223372036854775808')(r),
      numberTextIs('odd', '9007199254740993')(r),
      bodyHasEntries({ huge: '12345678901234567890' }, 'client')(r),
    ],
  }),
  numberCase({
    id: '3.6.9',
    title: 'numeric strings become numbers: "1.0" the double 1.0, "007" the long 7',
    requirement: 'With type casting on (ThingsBoard\'s default), a string NumberUtils.isParsable accepts is stored as a number typed by its text.',
    sent: '{"castDouble":"1.0","castLong":"007","notNumber":"1."}',
    checks: (r) => [numberTextIs('castDouble', '1.0')(r), numberTextIs('castLong', '7')(r), bodyHasEntries({ notNumber: '1.' }, 'client')(r)],
  }),
];
