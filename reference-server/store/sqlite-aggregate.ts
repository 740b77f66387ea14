// Time-series aggregation (TelemetryController's agg=MIN|MAX|AVG|SUM|COUNT), done in SQL one bucket
// at a time: an aggregate over [startTs, endTs) read through the primary key (device, key, ts), so
// no value is held in memory, and a seek for the next value so that empty buckets cost one index
// lookup (the buckets themselves are made by the caller). Each bucket answers as ThingsBoard's SQL
// store does (TsKvRepository's queries turned into a value by TsKvEntity):
// - COUNT: a LONG, the number of booleans if the bucket has any, else of strings, else of JSON
//   values, else of numbers (ThingsBoard counts one kind, not all of them);
// - SUM: the LONG sum of the longs, or the DOUBLE sum of both when there are doubles; a bucket
//   without numbers sums to the LONG 0;
// - AVG: always a DOUBLE, (sum of longs + sum of doubles) / count, 0.0 for a bucket without numbers;
// - MIN, MAX: a LONG over longs only, a DOUBLE when doubles are present, over strings (compared as
//   text) only when the bucket has no number; booleans and JSON alone give no point.
// Doubles are added one by one in time order, as Postgres adds them (SQLite's own sum() compensates
// rounding and would print 0.6 where ThingsBoard prints 0.6000000000000001). Longs are summed
// exactly, in two 32-bit halves so that SQLite's integer sum cannot overflow.
import type { Database, Statement } from 'better-sqlite3';
import { DEVICE_NUM, KEY_ID } from './sqlite-telemetry-log.js';
import type { AggregateQuery, AggregateValue, Aggregation, KvValue } from './types.js';

interface BucketRow {
  nBool: bigint;
  nStr: bigint;
  nJson: bigint;
  nLong: bigint;
  nDbl: bigint;
  longHi: bigint | null;
  longLo: bigint | null;
  dblSum: number | null;
  longMin: bigint | null;
  longMax: bigint | null;
  dblMin: number | null;
  dblMax: number | null;
  strMin: string | null;
  strMax: string | null;
}

const LONG = "CASE WHEN type = 'LONG' THEN CAST(value AS INTEGER) END";
const DOUBLE = "CASE WHEN type = 'DOUBLE' THEN CAST(value AS REAL) END";
const STRING = "CASE WHEN type = 'STRING' THEN value END";
const COUNTS = `sum(type = 'BOOLEAN') AS nBool, sum(type = 'STRING') AS nStr, sum(type = 'JSON') AS nJson,
  sum(type = 'LONG') AS nLong, sum(type = 'DOUBLE') AS nDbl`;
const SUMS = `sum(${LONG} >> 32) AS longHi, sum(${LONG} & 4294967295) AS longLo, dhi_naive_sum(${DOUBLE}) AS dblSum`;

const COLUMNS: Record<Aggregation, string> = {
  COUNT: COUNTS,
  SUM: `${COUNTS}, ${SUMS}`,
  AVG: `${COUNTS}, ${SUMS}`,
  MIN: `${COUNTS}, min(${LONG}) AS longMin, min(${DOUBLE}) AS dblMin, min(${STRING}) AS strMin`,
  MAX: `${COUNTS}, max(${LONG}) AS longMax, max(${DOUBLE}) AS dblMax, max(${STRING}) AS strMax`,
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A LONG as the store keeps it: a number while exact, a bigint beyond 2^53. */
const long = (n: bigint): KvValue => (n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n);

function longSum(r: BucketRow): bigint {
  return (r.longHi ?? 0n) * 2n ** 32n + (r.longLo ?? 0n);
}

/** The value of one bucket, or undefined when ThingsBoard gives the bucket no point. */
function bucketValue(agg: Aggregation, r: BucketRow): AggregateValue | undefined {
  const numbers = r.nLong + r.nDbl;
  switch (agg) {
    case 'COUNT':
      return { type: 'LONG', value: long(r.nBool || r.nStr || r.nJson || numbers) };
    case 'SUM': {
      const sum = longSum(r);
      if (r.nDbl > 0n) return { type: 'DOUBLE', value: (r.dblSum ?? 0) + Number(sum) };
      // Beyond the 64-bit range ThingsBoard fails reading the sum back; dhi answers it as a double.
      return sum < INT64_MIN || sum > INT64_MAX ? { type: 'DOUBLE', value: Number(sum) } : { type: 'LONG', value: long(sum) };
    }
    case 'AVG':
      return { type: 'DOUBLE', value: numbers > 0n ? (0 + Number(longSum(r)) + (r.dblSum ?? 0)) / Number(numbers) : 0 };
    case 'MIN':
    case 'MAX': {
      const max = agg === 'MAX';
      const longPart = max ? r.longMax : r.longMin;
      const doublePart = max ? r.dblMax : r.dblMin;
      if (longPart !== null && doublePart !== null) {
        return { type: 'DOUBLE', value: (max ? Math.max : Math.min)(doublePart, Number(longPart)) };
      }
      if (doublePart !== null) return { type: 'DOUBLE', value: doublePart };
      if (longPart !== null) return { type: 'LONG', value: long(longPart) };
      const text = max ? r.strMax : r.strMin;
      return text === null ? undefined : { type: 'STRING', value: text };
    }
  }
}

export interface AggregationQueries {
  aggregateTelemetry(deviceId: string, query: AggregateQuery): AggregateValue | undefined;
  nextTelemetryTs(deviceId: string, key: string, fromTs: number, endTs: number): number | undefined;
}

export function createAggregation(db: Database): AggregationQueries {
  // Postgres adds float8 values one after the other; so does this aggregate (rows come in ts order:
  // a plain aggregate walks the primary key).
  db.aggregate('dhi_naive_sum', {
    start: () => null as number | null,
    step: (total: number | null, value: number | null) => (value === null ? total : (total ?? 0) + value),
  });
  const statements = Object.fromEntries(Object.entries(COLUMNS).map(([agg, columns]) => {
    const stmt = db.prepare(`SELECT count(*) AS n, ${columns} FROM telemetry
      WHERE device = ${DEVICE_NUM('@deviceId')} AND key = ${KEY_ID('@key')} AND ts >= @startTs AND ts < @endTs`);
    return [agg, stmt.safeIntegers(true)];
  })) as Record<Aggregation, Statement>;
  const next = db.prepare(`SELECT ts FROM telemetry WHERE device = ${DEVICE_NUM('?')} AND key = ${KEY_ID('?')}
    AND ts >= ? AND ts < ? ORDER BY ts LIMIT 1`).pluck();

  return {
    aggregateTelemetry(deviceId, { key, agg, startTs, endTs }) {
      const row = statements[agg].get({ deviceId, key, startTs, endTs }) as BucketRow & { n: bigint };
      return row.n === 0n ? undefined : bucketValue(agg, row);
    },
    nextTelemetryTs: (deviceId, key, fromTs, endTs) => next.get(deviceId, key, fromTs, endTs) as number | undefined,
  };
}
