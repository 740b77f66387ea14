// Operation 1: POST /api/v1/{token}/telemetry.
import type { Case } from '../case.js';
import {
  bodyIsEmpty, checkAll, keyNotStored, statusIs, statusIsSuccess, storedTsEquals, storedTsWithin, storedValueEquals,
} from '../checks.js';
import { invalidInput, TB_500 } from './patterns.js';
import { expectStored, json, op, raw } from './kit.js';

/** Allowed difference between the suite's clock and the server's when checking server timestamps. */
export const CLOCK_SKEW_MS = 1000;

const VALUES = { s: 'text', b: true, l: 73, d: 42.5, j: { nested: { list: [1, 2, 3] } } };
const HOUR_AGO = () => Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

export const telemetryCases: Case[] = [
  {
    id: '1.1.1',
    title: 'form (a): each value type is stored with its value and type',
    requirement: 'A value is a string, boolean, long, double or JSON object/array, and keeps that type (specification, Key-value content).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      t.expect(statusIsSuccess()(await t.device(op.telemetry(d.token, json(VALUES)))));
      await expectStored(t, () => t.control.getTimeseries(d.id, Object.keys(VALUES)), (series) => [...Object.entries(VALUES).map(([k, v]) => storedValueEquals(series, k, v))]);
    },
  },
  {
    id: '1.1.2',
    title: 'form (a): the data gets the server timestamp',
    requirement: `With form (a) the server timestamp is assigned to all data (specification, rule 1); it lies inside the request's window (±${CLOCK_SKEW_MS} ms clock skew).`,
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const from = Date.now();
      t.expect(statusIsSuccess()(await t.device(op.telemetry(d.token, json({ a1: 1, a2: 'two' })))));
      const to = Date.now();
      await expectStored(t, () => t.control.getTimeseries(d.id, ['a1', 'a2']), (series) => [storedTsWithin(series, 'a1', from - CLOCK_SKEW_MS, to + CLOCK_SKEW_MS), storedTsWithin(series, 'a2', from - CLOCK_SKEW_MS, to + CLOCK_SKEW_MS)]);
    },
  },
  {
    id: '1.1.3',
    title: 'form (b): every object of an array is stored with the server timestamp',
    requirement: 'With form (b), an array of key-value objects, the server timestamp is assigned to all data (specification, rule 1).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const from = Date.now();
      t.expect(statusIsSuccess()(await t.device(op.telemetry(d.token, json([{ b1: 1.5 }, { b2: 'second' }])))));
      const to = Date.now();
      await expectStored(t, () => t.control.getTimeseries(d.id, ['b1', 'b2']), (series) => [
        storedValueEquals(series, 'b1', 1.5),
        storedValueEquals(series, 'b2', 'second'),
        storedTsWithin(series, 'b1', from - CLOCK_SKEW_MS, to + CLOCK_SKEW_MS),
        storedTsWithin(series, 'b2', from - CLOCK_SKEW_MS, to + CLOCK_SKEW_MS),
      ]);
    },
  },
  {
    id: '1.1.4',
    title: 'form (c): the supplied ts is used',
    requirement: 'With form (c), {ts, values}, the supplied ts is used for the values (specification, rule 1).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const ts = HOUR_AGO();
      t.expect(statusIsSuccess()(await t.device(op.telemetry(d.token, json({ ts, values: { c1: 5, c2: 'x' } })))));
      await expectStored(t, () => t.control.getTimeseries(d.id, ['c1', 'c2']), (series) => [storedTsEquals(series, 'c1', ts), storedTsEquals(series, 'c2', ts), storedValueEquals(series, 'c1', 5), storedValueEquals(series, 'c2', 'x')]);
    },
  },
  {
    id: '1.1.5',
    title: 'form (c) in an array: each record keeps its own ts',
    requirement: 'An array of {ts, values} records stores each record at its ts (ThingsBoard; forms (b) and (c) combined).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const ts = HOUR_AGO();
      const body = [{ ts, values: { k: 1 } }, { ts: ts + 1000, values: { k: 2 } }];
      t.expect(statusIsSuccess()(await t.device(op.telemetry(d.token, json(body)))));
      await expectStored(t, () => t.control.getTimeseries(d.id, ['k'], { startTs: ts - 1, endTs: ts + 2000 }), (series) => [storedTsEquals(series, 'k', ts), storedTsEquals(series, 'k', ts + 1000)]);
    },
  },
  {
    id: '1.1.6',
    title: 'an array mixing forms (a) and (c) is accepted',
    requirement: 'ThingsBoard accepts an array mixing key-value objects and {ts, values} records: the former get the server time, the latter their ts.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const ts = HOUR_AGO();
      const from = Date.now();
      t.expect(statusIsSuccess()(await t.device(op.telemetry(d.token, json([{ ts, values: { m1: 1 } }, { m2: 2 }])))));
      const to = Date.now();
      await expectStored(t, () => t.control.getTimeseries(d.id, ['m1', 'm2']), (series) => [storedTsEquals(series, 'm1', ts), storedTsWithin(series, 'm2', from - CLOCK_SKEW_MS, to + CLOCK_SKEW_MS)]);
    },
  },
  {
    id: '1.6.1',
    title: 'accepted telemetry is answered 200 with an empty body',
    requirement: 'ThingsBoard answers a write 200 with an empty body (the specification does not show the response).',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      t.expect(...checkAll(await t.device(op.telemetry(t.devices[0].token, json({ x: 1 }))), statusIs(200), bodyIsEmpty()));
    },
  },
  {
    id: '1.6.2',
    title: 'an empty object {} is accepted (the connection test devices send)',
    requirement: 'ThingsBoard answers {} with 200 (zero keys); devices use it as a connection test.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      t.expect(statusIs(200)(await t.device(op.telemetry(t.devices[0].token, json({})))));
    },
  },
  {
    id: '1.6.3',
    title: 'null values are skipped, the others stored',
    requirement: 'ThingsBoard silently skips keys whose value is null and stores the rest.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      t.expect(statusIs(200)(await t.device(op.telemetry(d.token, json({ n: null, v: 1 })))));
      await expectStored(t, () => t.control.getTimeseries(d.id, ['n', 'v']), (series) => [keyNotStored(series, 'n'), storedValueEquals(series, 'v', 1)]);
    },
  },
  {
    id: '1.6.4',
    title: 'numeric strings are stored as numbers (type cast)',
    requirement: 'With ThingsBoard\'s default transport.json.type_cast_enabled, "42" is stored as 42 and "true" stays a string (configurable, hence INFO).',
    severity: 'INFO',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      t.expect(statusIs(200)(await t.device(op.telemetry(d.token, json({ ns: '42', bs: 'true' })))));
      await expectStored(t, () => t.control.getTimeseries(d.id, ['ns', 'bs']), (series) => [storedValueEquals(series, 'ns', 42), storedValueEquals(series, 'bs', 'true')]);
    },
  },
  {
    id: '1.6.5',
    title: 'an object with "values" but no "ts" is form (a): "values" is an ordinary key',
    requirement: 'ThingsBoard reads form (c) only when the object has both ts and values (JsonConverter.convertToTelemetry); otherwise every key, values included, is a telemetry key.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      t.expect(statusIs(200)(await t.device(op.telemetry(d.token, json({ values: { inner: 1 } })))));
      await expectStored(t, () => t.control.getTimeseries(d.id, ['values', 'inner']), (series) => [storedValueEquals(series, 'values', { inner: 1 }), keyNotStored(series, 'inner')]);
    },
  },
  {
    id: '1.1.7',
    title: 'large flat bodies are accepted whole: 1,100 records in one array, 600 keys in one object',
    requirement: 'Telemetry may be sent as an array of records or an object of many keys (specification, operation 1); size and key count alone are no error below the payload limit, and nesting stays at two levels.',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const base = HOUR_AGO();
      const records = Array.from({ length: 1100 }, (_, i) => ({ ts: base + i, values: { n: i } }));
      const keys = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, i]));
      t.expect(statusIs(200)(await t.device(op.telemetry(d.token, json(records)))), statusIs(200)(await t.device(op.telemetry(d.token, json(keys)))));
      await expectStored(t, () => t.control.getTimeseries(d.id, ['n', 'k0', 'k599']), (series) => [
        storedValueEquals(series, 'n', 1099), storedTsEquals(series, 'n', base + 1099), storedValueEquals(series, 'k0', 0), storedValueEquals(series, 'k599', 599),
      ]);
    },
  },
  invalidInput({ id: '1.2.1', title: 'malformed JSON is 400', thingsboard: TB_500, request: (k) => op.telemetry(k, raw('{"temperature": 25,')) }),
  invalidInput({ id: '1.2.2', title: 'a top-level number is 400', thingsboard: TB_500, request: (k) => op.telemetry(k, raw('42')) }),
  invalidInput({ id: '1.2.3', title: 'form (c) with values that are not an object is 400', thingsboard: TB_500, request: (k) => op.telemetry(k, json({ ts: 1700000000000, values: 5 })) }),
  invalidInput({ id: '1.2.4', title: 'an array with a non-object element is 400', thingsboard: TB_500, request: (k) => op.telemetry(k, json([{ a: 1 }, 3])) }),
  invalidInput({ id: '1.2.5', title: 'an empty body is 400', request: (k) => op.telemetry(k, raw('')) }),
  invalidInput({ id: '1.2.6', title: 'a null body is 400', thingsboard: TB_500, request: (k) => op.telemetry(k, raw('null')) }),
  invalidInput({ id: '1.2.7', title: 'a string left open is 400', thingsboard: TB_500, request: (k) => op.telemetry(k, raw('{"note": "left open')) }),
];
