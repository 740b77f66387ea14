// A device's stored time series, as Store.readTelemetry hands them to its callback (types.ts
// DeviceSeries): read once group commit has folded the device's rows out of the telemetry log
// (sqlite-telemetry.ts), so that they hold every acknowledged message. One DeviceSeries serves
// every read of the store: it reads the device whose callback is running, so that a read allocates
// no series of its own.
import type Database from 'better-sqlite3';
import { createAggregation } from './sqlite-aggregate.js';
import { DEVICE_NUM, KEY_ID } from './sqlite-telemetry-log.js';
import { fromRow, pick, type KvRow } from './sqlite-values.js';
import type { DeviceSeries, KvEntry } from './types.js';

/** Runs `read` with the time series of the device. */
export type SeriesRead = <T>(deviceId: string, read: (series: DeviceSeries) => T) => T;

/** `keys`: the device's keys with a latest value, sorted (sqlite-keys.ts). */
export function createSeriesReads(db: Database.Database, keys: (deviceId: string) => string[]): SeriesRead {
  const q = {
    latest: db.prepare(`SELECT k.key, l.ts, l.type, l.value FROM telemetry_latest l JOIN telemetry_keys k ON k.id = l.key
      WHERE l.device = ${DEVICE_NUM('?')} ORDER BY k.key`),
    // endTs is exclusive, as in ThingsBoard's TsKvRepository.findAllWithLimit.
    rangeAsc: db.prepare(`SELECT @key AS key, ts, type, value FROM telemetry WHERE device = ${DEVICE_NUM('@deviceId')}
      AND key = ${KEY_ID('@key')} AND ts >= @startTs AND ts < @endTs ORDER BY ts ASC LIMIT @limit`),
    rangeDesc: db.prepare(`SELECT @key AS key, ts, type, value FROM telemetry WHERE device = ${DEVICE_NUM('@deviceId')}
      AND key = ${KEY_ID('@key')} AND ts >= @startTs AND ts < @endTs ORDER BY ts DESC LIMIT @limit`),
  };
  const aggregation = createAggregation(db);
  /** The device whose callback is running; undefined between callbacks. */
  let reading: string | undefined;

  function device(): string {
    if (reading === undefined) throw new Error('a DeviceSeries is read only inside its readTelemetry callback');
    return reading;
  }

  const series: DeviceSeries = {
    latest: (only) => pick((q.latest.all(device()) as KvRow[]).map(fromRow), only),
    range({ keys: wanted, startTs, endTs, limit, order }) {
      const stmt = order === 'ASC' ? q.rangeAsc : q.rangeDesc;
      const deviceId = device();
      const points: KvEntry[] = [];
      for (const key of wanted) for (const row of stmt.all({ deviceId, key, startTs, endTs, limit }) as KvRow[]) points.push(fromRow(row));
      return points;
    },
    aggregate: (query) => aggregation.aggregateTelemetry(device(), query),
    nextTs: (key, fromTs, endTs) => aggregation.nextTelemetryTs(device(), key, fromTs, endTs),
    keys: () => keys(device()),
  };

  return (deviceId, read) => {
    // A callback may read another device, and that read may run at once (nothing of it to fold).
    const outer = reading;
    reading = deviceId;
    try {
      return read(series);
    } finally {
      reading = outer;
    }
  };
}
