// Operation 2: POST /api/v1/{token}/attributes (client-side attributes).
import type { Case } from '../case.js';
import { attributesInclude, attributesLack, bodyIsEmpty, checkAll, statusIs, statusIsSuccess } from '../checks.js';
import { expectStored, json, op, raw } from './kit.js';
import { invalidInput, TB_500 } from './patterns.js';

const VALUES = { a1: 'value1', a2: true, a3: 42.5, a4: 73, a5: { someNumber: 42, someArray: [1, 2, 3] } };

export const attributeUploadCases: Case[] = [
  {
    id: '2.1.1',
    title: 'each value type is stored as a client-side attribute',
    requirement: 'The body is an object of client-side attribute key-value pairs; each value keeps its type (specification, operation 2 and Key-value content).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      t.expect(statusIsSuccess()(await t.device(op.postAttributes(d.token, json(VALUES)))));
      await expectStored(t, () => t.control.getAttributes(d.id, 'CLIENT_SCOPE', Object.keys(VALUES)), (entries) => [attributesInclude(entries, VALUES)]);
    },
  },
  {
    id: '2.1.2',
    title: 'uploaded attributes are client-side, not shared',
    requirement: 'Client-side attributes are written by the device; shared ones only by server-side components (specification, Attributes).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      t.expect(statusIsSuccess()(await t.device(op.postAttributes(d.token, json({ onlyClient: 1 })))));
      // Wait for the write to land as a client attribute, then assert its absence from shared.
      await expectStored(t, () => t.control.getAttributes(d.id, 'CLIENT_SCOPE', ['onlyClient']), (entries) => [attributesInclude(entries, { onlyClient: 1 })]);
      t.expect(attributesLack(await t.control.getAttributes(d.id, 'SHARED_SCOPE'), ['onlyClient']));
    },
  },
  {
    id: '2.1.3',
    title: 'a second upload replaces the value',
    requirement: 'An attribute holds its latest uploaded value (specification, Attributes).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      t.expect(statusIsSuccess()(await t.device(op.postAttributes(d.token, json({ u: 1 })))));
      t.expect(statusIsSuccess()(await t.device(op.postAttributes(d.token, json({ u: 'two' })))));
      await expectStored(t, () => t.control.getAttributes(d.id, 'CLIENT_SCOPE', ['u']), (entries) => [attributesInclude(entries, { u: 'two' })]);
    },
  },
  {
    id: '2.1.4',
    title: '1,100 array values side by side in one body are stored whole',
    requirement: 'A value may be a JSON array (specification, Key-value content); arrays side by side are not nesting, so a body of many of them is stored whole below the payload limit.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const values = Object.fromEntries(Array.from({ length: 1100 }, (_, i) => [`arr${i}`, [i]]));
      t.expect(statusIs(200)(await t.device(op.postAttributes(d.token, json(values)))));
      await expectStored(t, () => t.control.getAttributes(d.id, 'CLIENT_SCOPE', ['arr0', 'arr1099']), (entries) => [attributesInclude(entries, { arr0: [0], arr1099: [1099] })]);
    },
  },
  {
    id: '2.6.1',
    title: 'accepted attributes are answered 200 with an empty body',
    requirement: 'ThingsBoard answers a write 200 with an empty body (the specification does not show the response).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      t.expect(...checkAll(await t.device(op.postAttributes(t.devices[0].token, json({ x: 1 }))), statusIs(200), bodyIsEmpty()));
    },
  },
  {
    id: '2.6.2',
    title: 'null values are skipped',
    requirement: 'ThingsBoard silently skips attributes whose value is null and stores the rest.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      t.expect(statusIs(200)(await t.device(op.postAttributes(d.token, json({ nul: null, kept: 'yes' })))));
      await expectStored(t, () => t.control.getAttributes(d.id, 'CLIENT_SCOPE', ['nul', 'kept']), (entries) => [attributesLack(entries, ['nul']), attributesInclude(entries, { kept: 'yes' })]);
    },
  },
  invalidInput({ id: '2.2.1', title: 'malformed JSON is 400', thingsboard: TB_500, request: (k) => op.postAttributes(k, raw('{"a": ')) }),
  invalidInput({ id: '2.2.2', title: 'an array is 400', thingsboard: TB_500, request: (k) => op.postAttributes(k, json([{ a: 1 }])) }),
  invalidInput({ id: '2.2.3', title: 'a string is 400', thingsboard: TB_500, request: (k) => op.postAttributes(k, json('text')) }),
  invalidInput({ id: '2.2.4', title: 'an empty body is 400', request: (k) => op.postAttributes(k, raw('')) }),
];
