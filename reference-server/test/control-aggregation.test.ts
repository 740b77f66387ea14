// Time-series ranges and aggregation (TelemetryController values/timeseries and
// values/timeseries/history) over real sockets: bucket stamps, value types as printed, calendar
// buckets, and ThingsBoard's refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { newDeviceVia, startAdminServer, UNKNOWN_ID, type Api, type DeviceRef } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

/** Telemetry as the device sends it; the body is text so that 42.0 stays a double. */
async function send(device: DeviceRef, body: string): Promise<void> {
  expect((await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, body)).status).toBe(200);
}
const points = (key: string, values: string[], ts0 = 1000, step = 1000) =>
  `[${values.map((v, i) => `{"ts":${ts0 + i * step},"values":{"${key}":${v}}}`).join(',')}]`;
const history = (device: DeviceRef | string, query: string) =>
  api('GET', `/api/plugins/telemetry/DEVICE/${typeof device === 'string' ? device : device.id}/values/timeseries/history?${query}`);
const text = async (device: DeviceRef, query: string) => {
  const res = await history(device, query);
  expect(res.status).toBe(200);
  return res.text;
};

describe('aggregation in millisecond buckets', () => {
  it('stamps each bucket with its middle, leaves empty buckets out and clips the last one to endTs', async () => {
    const d = await newDeviceVia(api);
    // 1000, 2000, 3000 in [0, 4000); nothing in [4000, 8000); 9000 in the clipped last bucket [8000, 9500).
    await send(d, '[{"ts":1000,"values":{"v":1}},{"ts":2000,"values":{"v":2}},{"ts":3000,"values":{"v":4}},{"ts":9000,"values":{"v":8}}]');
    expect(await text(d, 'keys=v&startTs=0&endTs=9500&interval=4000&agg=SUM&useStrictDataTypes=true'))
      .toBe('{"v":[{"ts":2000,"value":7},{"ts":8750,"value":8}]}');
    // Without strict types a long prints as a string; aggregated points stay oldest first whatever orderBy.
    expect(await text(d, 'keys=v&startTs=0&endTs=9500&interval=4000&agg=SUM&orderBy=DESC'))
      .toBe('{"v":[{"ts":2000,"value":"7"},{"ts":8750,"value":"8"}]}');
    // `limit` does not apply to buckets; startTs is the first bucket's start, not a multiple of the interval.
    expect(await text(d, 'keys=v&startTs=500&endTs=9500&interval=1000&agg=COUNT&limit=1&useStrictDataTypes=true'))
      .toBe('{"v":[{"ts":1000,"value":1},{"ts":2000,"value":1},{"ts":3000,"value":1},{"ts":9000,"value":1}]}');
  });

  it('types each result as ThingsBoard does: AVG a double, SUM a long over longs, MIN/MAX a double once doubles take part', async () => {
    const d = await newDeviceVia(api);
    await send(d, points('l', ['1', '2', '4', '8']));
    await send(d, points('m', ['1', '2.5', '4']));
    const strict = (key: string, agg: string) => text(d, `keys=${key}&startTs=0&endTs=10000&interval=10000&agg=${agg}&useStrictDataTypes=true`);
    expect(await strict('l', 'AVG')).toBe('{"l":[{"ts":5000,"value":3.75}]}');
    expect(await strict('l', 'SUM')).toBe('{"l":[{"ts":5000,"value":15}]}');
    expect(await strict('l', 'MIN')).toBe('{"l":[{"ts":5000,"value":1}]}');
    expect(await strict('l', 'MAX')).toBe('{"l":[{"ts":5000,"value":8}]}');
    expect(await strict('l', 'COUNT')).toBe('{"l":[{"ts":5000,"value":4}]}');
    expect(await strict('m', 'SUM')).toBe('{"m":[{"ts":5000,"value":7.5}]}');
    expect(await strict('m', 'MAX')).toBe('{"m":[{"ts":5000,"value":4.0}]}');
    expect(await strict('m', 'MIN')).toBe('{"m":[{"ts":5000,"value":1.0}]}');
    // Java's Double.toString without strict types.
    expect(await text(d, 'keys=l,m&startTs=0&endTs=10000&interval=10000&agg=AVG'))
      .toBe('{"l":[{"ts":5000,"value":"3.75"}],"m":[{"ts":5000,"value":"2.5"}]}');
  });

  it('adds doubles one by one in time order (0.1 + 0.2 + 0.3 is 0.6000000000000001) and sums longs exactly beyond 2^53', async () => {
    const d = await newDeviceVia(api);
    await send(d, points('f', ['0.1', '0.2', '0.3']));
    await send(d, points('big', ['9007199254740993', '9007199254740993', '-1']));
    await send(d, points('edge', ['9223372036854775807', '1']));
    const one = (key: string, agg: string) => text(d, `keys=${key}&startTs=0&endTs=10000&interval=10000&agg=${agg}&useStrictDataTypes=true`);
    expect(await one('f', 'SUM')).toBe('{"f":[{"ts":5000,"value":0.6000000000000001}]}');
    expect(await one('f', 'AVG')).toBe('{"f":[{"ts":5000,"value":0.20000000000000004}]}');
    expect(await one('big', 'SUM')).toBe('{"big":[{"ts":5000,"value":18014398509481985}]}');
    expect(await one('big', 'MAX')).toBe('{"big":[{"ts":5000,"value":9007199254740993}]}');
    // A sum beyond the signed 64-bit range answers as a double (ThingsBoard fails reading it back).
    expect(await one('edge', 'SUM')).toBe('{"edge":[{"ts":5000,"value":9.223372036854776E18}]}');
  });

  it('counts one kind of value, takes MIN/MAX of strings only without numbers, and gives booleans alone no MIN/MAX', async () => {
    const d = await newDeviceVia(api);
    // [0, 10000): two booleans and three numbers; [10000, 20000): strings only; [20000, 30000): booleans only.
    await send(d, '[{"ts":1000,"values":{"k":true}},{"ts":2000,"values":{"k":false}},{"ts":3000,"values":{"k":5}},{"ts":4000,"values":{"k":7}},{"ts":5000,"values":{"k":"9"}},' +
      '{"ts":11000,"values":{"k":"pear"}},{"ts":12000,"values":{"k":"apple"}},{"ts":21000,"values":{"k":true}}]');
    const q = (agg: string) => text(d, `keys=k&startTs=0&endTs=30000&interval=10000&agg=${agg}&useStrictDataTypes=true`);
    // "9" is cast to the long 9 (the device API's type casting).
    expect(await q('COUNT')).toBe('{"k":[{"ts":5000,"value":2},{"ts":15000,"value":2},{"ts":25000,"value":1}]}');
    expect(await q('MAX')).toBe('{"k":[{"ts":5000,"value":9},{"ts":15000,"value":"pear"}]}');
    expect(await q('MIN')).toBe('{"k":[{"ts":5000,"value":5},{"ts":15000,"value":"apple"}]}');
    // A bucket without numbers sums to the long 0 and averages 0.0.
    expect(await q('SUM')).toBe('{"k":[{"ts":5000,"value":21},{"ts":15000,"value":0},{"ts":25000,"value":0}]}');
    expect(await q('AVG')).toBe('{"k":[{"ts":5000,"value":7.0},{"ts":15000,"value":0.0},{"ts":25000,"value":0.0}]}');
  });

  it('is the same read at values/timeseries with startTs and endTs, and takes repeated key parameters', async () => {
    const d = await newDeviceVia(api);
    await send(d, points('a,b', ['1', '3']));
    const path = `/api/plugins/telemetry/DEVICE/${d.id}/values/timeseries?key=a,b&startTs=0&endTs=4000&interval=4000&agg=AVG`;
    expect((await api('GET', path)).text).toBe('{"a,b":[{"ts":2000,"value":"2.0"}]}');
    expect(await text(d, 'key=a,b&startTs=0&endTs=4000&interval=4000&agg=AVG')).toBe('{"a,b":[{"ts":2000,"value":"2.0"}]}');
    // No keys at all: an empty object (ThingsBoard's own test).
    expect(await text(d, 'startTs=0&endTs=4000&interval=4000&agg=AVG')).toBe('{}');
  });
});

describe('calendar buckets', () => {
  it('sums by ISO week and by month in Europe/Kyiv as ThingsBoard\'s TelemetryControllerTest does', async () => {
    const d = await newDeviceVia(api);
    const startTs = 1704899727000; // Wednesday, 10 January 2024 15:15:27 GMT
    const endOfWeek1 = 1705269600000; // Monday, 15 January 2024 00:00 +02:00
    const endOfWeek2 = 1705874400000; // Monday, 22 January 2024 00:00 +02:00
    const endTs = endOfWeek2 + 86_400_000 + 3_600_000;
    const values: [number, number][] = [[1704899728000, 1], [1704899729000, 3], [endOfWeek1, 2], [endOfWeek1 + 1000, 5], [endOfWeek2, 9], [endOfWeek2 + 1000, 2]];
    await send(d, JSON.stringify(values.map(([ts, t]) => ({ ts, values: { t } }))));
    const mid = (a: number, b: number) => a + Math.floor((b - a) / 2);
    const query = `keys=t&startTs=${startTs}&endTs=${endTs}&agg=SUM&timeZone=Europe/Kyiv&useStrictDataTypes=true`;
    expect(JSON.parse(await text(d, `${query}&intervalType=WEEK_ISO`))).toEqual({
      t: [{ ts: mid(startTs, endOfWeek1), value: 4 }, { ts: mid(endOfWeek1, endOfWeek2), value: 7 }, { ts: mid(endOfWeek2, endTs), value: 11 }],
    });
    expect(JSON.parse(await text(d, `${query}&intervalType=MONTH`))).toEqual({ t: [{ ts: mid(startTs, endTs), value: 22 }] });
    // WEEK starts on Sunday: 14 and 21 January 2024 at 00:00 +02:00.
    const sunday1 = endOfWeek1 - 86_400_000;
    const sunday2 = endOfWeek2 - 86_400_000;
    expect(JSON.parse(await text(d, `${query}&intervalType=WEEK`))).toEqual({
      t: [{ ts: mid(startTs, sunday1), value: 4 }, { ts: mid(sunday1, sunday2), value: 7 }, { ts: mid(sunday2, endTs), value: 11 }],
    });
  });

  it('reads the zone as Java does: offsets and UTC+h, ThingsBoard\'s aliases, and quarters', async () => {
    const d = await newDeviceVia(api);
    const may = Date.UTC(2024, 4, 15);
    await send(d, JSON.stringify([{ ts: may, values: { q: 1 } }, { ts: Date.UTC(2024, 6, 2), values: { q: 2 } }]));
    const july = Date.UTC(2024, 6, 1);
    const endTs = Date.UTC(2024, 7, 1);
    const query = `keys=q&startTs=${may}&endTs=${endTs}&agg=COUNT&intervalType=QUARTER&useStrictDataTypes=true`;
    expect(JSON.parse(await text(d, `${query}&timeZone=Z`))).toEqual({
      q: [{ ts: may + (july - may) / 2, value: 1 }, { ts: july + (endTs - july) / 2, value: 1 }],
    });
    // +02:00 (and UTC+2): the quarter ends on 1 July at 00:00 +02:00, two hours earlier.
    for (const zone of ['%2B02:00', 'UTC%2B2']) {
      const end = july - 7_200_000;
      expect(JSON.parse(await text(d, `${query}&timeZone=${zone}`))).toEqual({
        q: [{ ts: may + (end - may) / 2, value: 1 }, { ts: end + (endTs - end) / 2, value: 1 }],
      });
    }
    // EST is America/New_York (daylight time in July: -04:00), not a fixed -05:00.
    const ny = july + 4 * 3_600_000;
    expect(JSON.parse(await text(d, `${query}&timeZone=EST`))).toEqual({
      q: [{ ts: may + (ny - may) / 2, value: 1 }, { ts: ny + (endTs - ny) / 2, value: 1 }],
    });
  });
});

describe('raw ranges and latest values', () => {
  it('reads raw values with agg=NONE or an interval of 0, endTs exclusive, limited and ordered per key', async () => {
    const d = await newDeviceVia(api);
    await send(d, points('r', ['1', '2', '3']));
    expect(await text(d, 'keys=r&startTs=1000&endTs=3000&agg=AVG&useStrictDataTypes=true')).toBe('{"r":[{"ts":2000,"value":2},{"ts":1000,"value":1}]}');
    expect(await text(d, 'keys=r&startTs=0&endTs=9999&limit=2&orderBy=asc')).toBe('{"r":[{"ts":1000,"value":"1"},{"ts":2000,"value":"2"}]}');
  });

  it('answers a key asked for without a latest value with a null value, in the order asked', async () => {
    const d = await newDeviceVia(api);
    await send(d, '{"ts":7,"values":{"x":42.0}}');
    const before = Date.now();
    const res = await api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/timeseries?keys=missing,x&useStrictDataTypes=true`);
    const body = res.json() as Record<string, { ts: number; value: unknown }[]>;
    expect(Object.keys(body)).toEqual(['missing', 'x']);
    expect(body.missing).toEqual([{ ts: expect.any(Number), value: null }]);
    expect(body.missing[0].ts).toBeGreaterThanOrEqual(before);
    expect(res.text).toContain('"x":[{"ts":7,"value":42.0}]');
    // Without keys: only the keys that have a value.
    expect((await api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/timeseries`)).text).toBe('{"x":[{"ts":7,"value":"42.0"}]}');
  });
});

describe('refusals', () => {
  it('answers ThingsBoard\'s messages for bad aggregation parameters, and 404 for an unknown device', async () => {
    const d = await newDeviceVia(api);
    const refused = async (query: string, message: string) => {
      const res = await history(d, query);
      expect(res.status, query).toBe(400);
      expect(res.json(), query).toMatchObject({ status: 400, errorCode: 31, message });
    };
    await refused('keys=a&startTs=0&endTs=1000&agg=MEDIAN', 'No enum constant org.thingsboard.server.common.data.kv.Aggregation.MEDIAN');
    await refused('keys=a&startTs=0&endTs=1000&agg=AVG&interval=-5',
      "Invalid TsKvQuery: 'interval' must be greater than 0, but got -5. Please check your query parameters and ensure 'endTs' is greater than 'startTs' or increase 'interval'.");
    await refused('keys=a&startTs=0&endTs=701000&agg=AVG&interval=1000',
      "Incorrect TsKvQuery. Number of intervals is to high - 701. Please increase 'interval' parameter for your query or reduce the time range of the query.");
    await refused('keys=a&startTs=5000&endTs=1000&agg=AVG&interval=1000',
      "Incorrect TsKvQuery. Number of intervals is to high - -4. Please increase 'interval' parameter for your query or reduce the time range of the query.");
    await refused('keys=a,,b&startTs=0&endTs=1000', "Incorrect ReadTsKvQuery. Key can't be empty");
    await refused('keys=a&startTs=0&endTs=1000&limit=0', 'Page size must not be less than one');
    await refused('keys=a&startTs=0&endTs=1000&orderBy=UP', "Invalid value 'UP' for orders given; Has to be either 'desc' or 'asc' (case insensitive)");
    await refused('keys=a&startTs=0&endTs=1000&agg=AVG&intervalType=YEAR', 'Invalid querystring: querystring/intervalType must be equal to one of the allowed values');
    expect((await history(d, 'keys=a&endTs=1000')).status).toBe(400);
    // 700 intervals is the most; a calendar month counts as 30 days, so 700 months are refused beyond 700 * 30 days.
    expect((await history(d, 'keys=a&startTs=0&endTs=700999&agg=AVG&interval=1000')).status).toBe(200);
    expect((await history(d, `keys=a&startTs=0&endTs=${701 * 30 * 86_400_000}&agg=AVG&intervalType=MONTH`)).status).toBe(400);
    const blank = await api('GET', `/api/plugins/telemetry/DEVICE/${d.id}/values/timeseries?keys=a,%20`);
    expect(blank.json()).toMatchObject({ status: 400, message: 'Incorrect key  ' });
    const missing = await history(UNKNOWN_ID, 'keys=a&startTs=0&endTs=1000&agg=AVG&interval=100');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe("Device with requested id wasn't found!");
  });
});
