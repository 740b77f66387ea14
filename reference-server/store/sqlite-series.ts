// A device's stored time series, as Store.readTelemetry hands them to its callback (types.ts
// DeviceSeries): read once group commit has folded the device's rows out of the telemetry log
// (sqlite-telemetry.ts), so that they hold every acknowledged message.
import type Database from 'better-sqlite3';
import { createAggregation } from './sqlite-aggregate.js';
import { DEVICE_NUM, KEY_ID } from './sqlite-telemetry-log.js';
import { fromRow, pick, type KvRow } from './sqlite-values.js';
import type { DeviceSeries } from './types.js';

/** `keys`: the device's keys with a latest value, sorted (sqlite-keys.ts). */
export function createSeriesReads(db: Database.Database, keys: (deviceId: string) => string[]): (deviceId: string) => DeviceSeries {
  const q = {
    latest: db.prepare(`SELECT k.key, l.ts, l.type, l.value FROM telemetry_latest l JOIN telemetry_keys k ON k.id = l.key
      WHERE l.device = ${DEVICE_NUM('?')} ORDER BY k.key`),
    // endTs is exclusive, as in ThingsBoard's TsKvRepository.findAllWithLimit.
    rangeAsc: db.prepare(`SELECT @key AS key, ts, type, value FROM telemetry WHERE device = ${DEVICE_NUM('@deviceId')}
      AND key = ${KEY_ID('@key')} AND ts >= @startTs AND ts < @endTs ORDER BY ts ASC LIMIT @limit`),
    rangeDesc: db.prepare(`SELECT @key AS key, ts, type, value FROM telemetry WHERE device = ${DEVICE_NUM('@deviceId')}
      AND key = ${KEY_ID('@key')} AND ts >= @startTs AND ts < @endTs ORDER BY ts DESC LIMIT @limit`),
    count: db.prepare(`SELECT count(*) AS n FROM telemetry WHERE device = ${DEVICE_NUM('?')}`),
  };
  const aggregation = createAggregation(db);

  return (deviceId) => ({
    latest: (only) => pick((q.latest.all(deviceId) as KvRow[]).map(fromRow), only),
    range(query) {
      const stmt = query.order === 'ASC' ? q.rangeAsc : q.rangeDesc;
      const { startTs, endTs, limit } = query;
      return query.keys.flatMap((key) => (stmt.all({ deviceId, key, startTs, endTs, limit }) as KvRow[]).map(fromRow));
    },
    aggregate: (query) => aggregation.aggregateTelemetry(deviceId, query),
    nextTs: (key, fromTs, endTs) => aggregation.nextTelemetryTs(deviceId, key, fromTs, endTs),
    count: () => (q.count.get(deviceId) as { n: number }).n,
    keys: () => keys(deviceId),
  });
}
