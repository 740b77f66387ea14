// Key listings and the time-series delete of the embedded store (TelemetryController's keys/...
// and timeseries/delete, DeviceProfileController's devices/keys/...). Values are moved between the
// telemetry tables as stored cells, never decoded here.
import type Database from 'better-sqlite3';
import { DEVICE_NUM, KEY_ID } from './sqlite-telemetry-log.js';
import type { FoldDrop } from './sqlite-telemetry-log.js';
import type { Scope, Store, TelemetryDelete } from './types.js';

type KeyQueries = Pick<Store, 'attributeKeys' | 'deleteTelemetry' | 'profileAttributeKeys' | 'profileNames'>;
/** Reads of the time series, for the store to run once the telemetry log is folded (sqlite-telemetry.ts). */
interface TelemetryKeyReads {
  telemetryKeys(deviceId: string): string[];
  profileTelemetryKeys(profileId: string | null): string[];
}

/** `settle`: takes the device's rows out of the telemetry log into the tables (sqlite-telemetry.ts), before a delete. */
export function createKeyQueries(db: Database.Database, settle: (deviceId: string, drop: FoldDrop) => void): { store: KeyQueries; reads: TelemetryKeyReads } {
  const q = {
    telemetryKeys: db.prepare(`SELECT k.key FROM telemetry_latest l JOIN telemetry_keys k ON k.id = l.key
      WHERE l.device = ${DEVICE_NUM('?')} ORDER BY k.key`),
    // ThingsBoard lists the scopes in AttributeScope order and keeps a key once per scope.
    attributeKeys: db.prepare(`SELECT key FROM attributes WHERE device_id = ?
      ORDER BY CASE scope WHEN 'CLIENT_SCOPE' THEN 0 WHEN 'SERVER_SCOPE' THEN 1 ELSE 2 END, key`),
    scopeKeys: db.prepare('SELECT key FROM attributes WHERE device_id = ? AND scope = ? ORDER BY key'),
    deleteRange: db.prepare(`DELETE FROM telemetry WHERE device = ${DEVICE_NUM('@deviceId')} AND key = ${KEY_ID('@key')}
      AND ts >= @startTs AND ts < @endTs`),
    deleteLatest: db.prepare(`DELETE FROM telemetry_latest WHERE device = ${DEVICE_NUM('@deviceId')} AND key = ${KEY_ID('@key')}
      AND ts >= @startTs AND ts < @endTs`),
    rewriteLatest: db.prepare(`INSERT INTO telemetry_latest (device, key, ts, type, value)
      SELECT device, key, ts, type, value FROM telemetry WHERE device = ${DEVICE_NUM('@deviceId')} AND key = ${KEY_ID('@key')}
      ORDER BY ts DESC LIMIT 1 ON CONFLICT (device, key) DO NOTHING`),
    // A null profile id means every device (ThingsBoard: deviceProfileId is optional).
    profileTelemetryKeys: db.prepare(`SELECT DISTINCT k.key FROM telemetry_latest l JOIN devices d ON d.num = l.device
      JOIN telemetry_keys k ON k.id = l.key WHERE @profileId IS NULL OR d.profile_id = @profileId ORDER BY k.key`),
    profileAttributeKeys: db.prepare(`SELECT DISTINCT a.key FROM attributes a JOIN devices d ON d.id = a.device_id
      WHERE @profileId IS NULL OR d.profile_id = @profileId ORDER BY a.key`),
    profileNames: db.prepare(`SELECT id, name FROM device_profiles p
      WHERE @activeOnly = 0 OR EXISTS (SELECT 1 FROM devices d WHERE d.profile_id = p.id) ORDER BY name`),
  };
  const keys = (rows: unknown[]) => (rows as { key: string }[]).map((r) => r.key);

  const store: KeyQueries = {
    attributeKeys: (deviceId, scope?: Scope) => keys(scope ? q.scopeKeys.all(deviceId, scope) : q.attributeKeys.all(deviceId)),
    deleteTelemetry(deviceId, keyList, { startTs, endTs, deleteLatest, rewriteLatest }: TelemetryDelete) {
      settle(deviceId, { keys: keyList, startTs, endTs });
      for (const key of keyList) {
        const range = { deviceId, key, startTs, endTs };
        q.deleteRange.run(range);
        if (!deleteLatest) continue;
        const removed = q.deleteLatest.run(range).changes > 0;
        if (removed && rewriteLatest) q.rewriteLatest.run({ deviceId, key });
      }
    },
    profileAttributeKeys: (profileId) => keys(q.profileAttributeKeys.all({ profileId })),
    profileNames: (activeOnly) => q.profileNames.all({ activeOnly: activeOnly ? 1 : 0 }) as { id: string; name: string }[],
  };
  const reads: TelemetryKeyReads = {
    telemetryKeys: (deviceId) => keys(q.telemetryKeys.all(deviceId)),
    profileTelemetryKeys: (profileId) => keys(q.profileTelemetryKeys.all({ profileId })),
  };
  return { store, reads };
}
