// Operation 3's key filters: only the requested client and shared keys come back, server-side
// attributes never do, and a key that is both client and shared keeps both values apart.
import type { Case, CaseRun } from '../case.js';
import type { Failure } from '../verdict.js';
import type { Reply } from '../client.js';
import { bodyHasEntries, bodyTextIs, checkAll, isObject, statusIs, statusIsSuccess } from '../checks.js';
import { json, op } from './kit.js';
import type { Schema } from '../../spec/types.js';

type KeyValues = Schema<'KeyValues'>;

type Groups = Record<string, Record<string, unknown>>;

/** The answer's groups; the shared group may have another name than ThingsBoard's `shared`. */
function groupsOf(reply: Reply): Groups {
  const body = isObject(reply.json) ? reply.json : {};
  return Object.fromEntries(Object.entries(body).map(([name, g]) => [name, isObject(g) ? g : { '(not an object)': g }]));
}

/** Keys of the client group are among clientKeys; keys of every other group among sharedKeys. */
function onlyRequested(reply: Reply, clientKeys: string[], sharedKeys: string[]): Failure | undefined {
  const unasked = Object.entries(groupsOf(reply)).flatMap(([name, g]) =>
    Object.keys(g).filter((k) => !(name === 'client' ? clientKeys : sharedKeys).includes(k)).map((k) => `${name}.${k}`));
  return unasked.length ? { check: 'onlyRequestedKeysReturned', expected: `client: only ${clientKeys.join(', ')}; shared: only ${sharedKeys.join(', ')}`, actual: unasked } : undefined;
}

/** `key` appears in a non-client group with `value`. */
function sharedValue(reply: Reply, key: string, value: unknown): Failure | undefined {
  const found = Object.entries(groupsOf(reply)).some(([name, g]) => name !== 'client' && JSON.stringify(g[key]) === JSON.stringify(value));
  return found ? undefined : { check: 'sharedAttributeReturned', expected: { [key]: value }, actual: reply.json ?? reply.text };
}

function absentEverywhere(reply: Reply, keys: string[], check: string): Failure | undefined {
  const leaks = Object.entries(groupsOf(reply)).flatMap(([name, g]) => keys.filter((k) => k in g).map((k) => `${name}.${k}=${JSON.stringify(g[k])}`));
  return leaks.length ? { check, expected: `none of ${keys.join(', ')} in any group`, actual: leaks } : undefined;
}

/** The device uploads `client`; the server side sets `shared` (and `server`). */
async function seed(t: CaseRun, client: Record<string, unknown>, shared: KeyValues, server?: KeyValues): Promise<string> {
  const [d] = t.devices;
  t.expect(statusIsSuccess()(await t.device(op.postAttributes(d.token, json(client)))));
  await t.control.setAttributes(d.id, 'SHARED_SCOPE', shared);
  if (server) await t.control.setAttributes(d.id, 'SERVER_SCOPE', server);
  return d.token;
}

export const keyFilterCases: Case[] = [
  {
    id: '3.1.6',
    title: 'only the requested keys are returned, in the group they were asked for',
    requirement: 'The response holds the requested attributes: clientKeys selects client-side keys, sharedKeys shared keys; nothing else is returned (specification, operation 3 and rule 2).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const token = await seed(t, { c1: 'one', c2: 2, other: 'client' }, { s1: 'uno', s2: 2.5, alsoOther: 'shared' });
      const reply = await t.device(op.getAttributes(token, 'clientKeys=c1&sharedKeys=s2'));
      t.expect(statusIsSuccess()(reply), bodyHasEntries({ c1: 'one' }, 'client')(reply), sharedValue(reply, 's2', 2.5), onlyRequested(reply, ['c1'], ['s2']));
      const onlyShared = await t.device(op.getAttributes(token, 'sharedKeys=s1'));
      t.expect(statusIsSuccess()(onlyShared), sharedValue(onlyShared, 's1', 'uno'), onlyRequested(onlyShared, [], ['s1']));
    },
  },
  {
    id: '3.1.7',
    title: 'server-side attributes are never returned to the device',
    requirement: 'Server-side attributes have no operation in the device interface (specification, Attributes): not when their key is requested, not when every attribute is.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const token = await seed(t, { c1: 'one' }, { s1: 'uno' }, { srvOnly: 'server', srvSecret: 42 });
      const asked = await t.device(op.getAttributes(token, 'clientKeys=c1,srvOnly&sharedKeys=s1,srvSecret'));
      t.expect(statusIsSuccess()(asked), bodyHasEntries({ c1: 'one' }, 'client')(asked), absentEverywhere(asked, ['srvOnly', 'srvSecret'], 'serverAttributesHidden'));
      const all = await t.device(op.getAttributes(token));
      t.expect(statusIsSuccess()(all), absentEverywhere(all, ['srvOnly', 'srvSecret'], 'serverAttributesHidden(no keys)'));
    },
  },
  {
    id: '3.1.8',
    title: 'a client and a shared attribute with the same key keep their own values',
    requirement: 'The same key can exist in client-side and shared attributes (specification, Attributes); the answer groups each by kind (operation 3).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const token = await seed(t, { dup: 'from the device', dupN: 1 }, { dup: 'from the server', dupN: 2 });
      const reply = await t.device(op.getAttributes(token, 'clientKeys=dup,dupN&sharedKeys=dup,dupN'));
      t.expect(statusIsSuccess()(reply), bodyHasEntries({ dup: 'from the device', dupN: 1 }, 'client')(reply), sharedValue(reply, 'dup', 'from the server'), sharedValue(reply, 'dupN', 2));
    },
  },
  {
    id: '3.6.10',
    title: 'key lists are split on commas and not trimmed: `a, b` asks for a and " b"; only commas is no list',
    requirement: 'ThingsBoard splits clientKeys and sharedKeys with Java\'s String.split(",") and trims nothing (DeviceApiController.getDeviceAttributes); a list with no key is an absent parameter.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const token = await seed(t, { a: 1, b: 2 }, { x: 'shared' });
      const spaced = await t.device(op.getAttributes(token, 'clientKeys=a,%20b&sharedKeys=%20x'));
      t.expect(...checkAll(spaced, statusIs(200), bodyTextIs('{"client":{"a":1}}')));
      const commas = await t.device(op.getAttributes(token, 'clientKeys=,&sharedKeys=x'));
      t.expect(...checkAll(commas, statusIs(200), bodyTextIs('{"shared":{"x":"shared"}}')));
    },
  },
];
