// The range reads of TelemetryController (values/timeseries with startTs and endTs, and
// values/timeseries/history), as ThingsBoard's DefaultTbTelemetryService, BaseTimeseriesService
// and its SQL store (AbstractChunkedAggregationTimeseriesDao) make them:
// - agg NONE, or an interval of 0 in milliseconds: up to `limit` values per key with
//   startTs <= ts < endTs, ordered by `orderBy` (case-insensitive; `limit` at least 1);
// - otherwise buckets from startTs to max(startTs + 1, endTs): `interval` ms each, or calendar
//   weeks, months or quarters in `timeZone`; the last one ends at the range's end. A bucket's point
//   is stamped with its middle, start + (end - start) / 2; buckets without a point are left out;
//   points come oldest first whatever `orderBy`, and `limit` does not apply.
// Every key is checked before any is read: a blank key, an interval below 1 ms and more than
// MAX_INTERVALS intervals (the interval counted as at least a second, a week as 7 days, a month 30
// and a quarter 90) are refused with ThingsBoard's messages.
import { badRequest } from '../errors.js';
import { calendarIntervalEnd, MAX_CALENDAR_TS, zoneOf, type CalendarInterval } from './calendar.js';
import type { Aggregation, DeviceSeries, KvEntry } from '../store/types.js';

export type IntervalType = 'MILLISECONDS' | CalendarInterval;

export interface RangeQuery {
  keys: string[];
  startTs: number;
  endTs: number;
  interval: number;
  intervalType?: IntervalType;
  timeZone?: string;
  limit: number;
  agg: Aggregation | 'NONE';
  orderBy: string;
}

/** ThingsBoard's database.ts_max_intervals default. */
export const MAX_INTERVALS = 700;
/** dhi's bound on `limit` (ThingsBoard has none): a raw read holds its values in memory. */
export const MAX_LIMIT = 100_000;

const AGGREGATIONS = new Set(['MIN', 'MAX', 'AVG', 'SUM', 'COUNT', 'NONE']);
const NOMINAL_DAYS: Record<CalendarInterval, number> = { WEEK: 7, WEEK_ISO: 7, MONTH: 30, QUARTER: 90 };
const DAY = 86_400_000;

/** Aggregation.valueOf in the controller: an unknown name is a 400 with Java's message. */
export function aggregationOf(text: string): Aggregation | 'NONE' {
  if (!AGGREGATIONS.has(text)) throw badRequest(`No enum constant org.thingsboard.server.common.data.kv.Aggregation.${text}`);
  return text as Aggregation | 'NONE';
}

/** Sort.Direction.fromString. */
function direction(orderBy: string): 'ASC' | 'DESC' {
  const upper = orderBy.toUpperCase();
  if (upper === 'ASC' || upper === 'DESC') return upper;
  throw badRequest(`Invalid value '${orderBy}' for orders given; Has to be either 'desc' or 'asc' (case insensitive)`);
}

/** BaseTimeseriesService.validate(ReadTsKvQuery) for the interval of an aggregated read. */
function checkIntervals(q: RangeQuery, interval: number): void {
  if (interval < 1) {
    throw badRequest(`Invalid TsKvQuery: 'interval' must be greater than 0, but got ${interval}. `
      + "Please check your query parameters and ensure 'endTs' is greater than 'startTs' or increase 'interval'.");
  }
  const count = Math.trunc((q.endTs - q.startTs) / Math.max(interval, 1000));
  if (count > MAX_INTERVALS || count < 0) {
    throw badRequest(`Incorrect TsKvQuery. Number of intervals is to high - ${count}. `
      + "Please increase 'interval' parameter for your query or reduce the time range of the query.");
  }
}

/** The points of every key, key after key (a key asked twice is answered twice, as ThingsBoard does). */
export function readRange(series: DeviceSeries, q: RangeQuery): KvEntry[] {
  const calendar = q.intervalType !== undefined && q.intervalType !== 'MILLISECONDS' ? q.intervalType : undefined;
  const aggregated = q.agg !== 'NONE' && (calendar !== undefined || q.interval !== 0);
  for (const key of q.keys) {
    if (key.trim() === '') throw badRequest("Incorrect ReadTsKvQuery. Key can't be empty");
    if (aggregated) checkIntervals(q, calendar ? NOMINAL_DAYS[calendar] * DAY : q.interval);
  }
  if (q.keys.length === 0) return [];
  if (!aggregated) {
    if (q.limit < 1) throw badRequest('Page size must not be less than one');
    if (q.limit > MAX_LIMIT) throw badRequest(`limit must be at most ${MAX_LIMIT} (dhi)`);
    const order = direction(q.orderBy);
    return series.range({ keys: q.keys, startTs: q.startTs, endTs: q.endTs, limit: q.limit, order });
  }
  const endPeriod = Math.max(q.startTs + 1, q.endTs);
  let bucketEnd: (start: number) => number;
  if (calendar) {
    if (endPeriod > MAX_CALENDAR_TS) throw badRequest(`Calendar intervals end at ${MAX_CALENDAR_TS} (dhi: JavaScript dates)`);
    const zone = zoneOf(q.timeZone);
    bucketEnd = (start) => Math.max(start + 1, calendarIntervalEnd(start, calendar, zone));
  } else {
    bucketEnd = (start) => start + q.interval;
  }
  return q.keys.flatMap((key) => aggregateKey(series, key, q.agg as Aggregation, q.startTs, endPeriod, bucketEnd, calendar === undefined ? q.interval : 0));
}

/**
 * The buckets of one key: from a bucket with no value the next value is sought through the index,
 * and the buckets up to it are skipped (by arithmetic for fixed intervals, one by one for calendar ones).
 */
function aggregateKey(series: DeviceSeries, key: string, agg: Aggregation, startTs: number, endPeriod: number,
  bucketEnd: (start: number) => number, fixed: number): KvEntry[] {
  const points: KvEntry[] = [];
  let start = startTs;
  while (start < endPeriod) {
    const next = series.nextTs(key, start, endPeriod);
    if (next === undefined) break;
    if (fixed > 0) start = startTs + Math.floor((next - startTs) / fixed) * fixed;
    let end = Math.min(bucketEnd(start), endPeriod);
    while (end <= next) {
      start = end;
      end = Math.min(bucketEnd(start), endPeriod);
    }
    const value = series.aggregate({ key, agg, startTs: start, endTs: end });
    if (value) points.push({ key, ts: start + Math.floor((end - start) / 2), ...value });
    start = end;
  }
  return points;
}
