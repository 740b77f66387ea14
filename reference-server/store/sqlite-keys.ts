// Key listings and the time-series delete of the embedded store (TelemetryController's keys/...
// and timeseries/delete, DeviceProfileController's devices/keys/...). Values are moved between the
// telemetry tables as stored cells, never decoded here.
import type Database from 'better-sqlite3';
import type { Scope, Store, TelemetryDelete } from './types.js';

type KeyQueries = Pick<Store, 'telemetryKeys' | 'attributeKeys' | 'deleteTelemetry' | 'profileTelemetryKeys' | 'profileAttributeKeys' | 'profileNames'>;

export function createKeyQueries(db: Database.Database): KeyQueries {
  const q = {
    telemetryKeys: db.prepare('SELECT key FROM telemetry_latest WHERE device_id = ? ORDER BY key'),
    // ThingsBoard lists the scopes in AttributeScope order and keeps a key once per scope.
    attributeKeys: db.prepare(`SELECT key FROM attributes WHERE device_id = ?
      ORDER BY CASE scope WHEN 'CLIENT_SCOPE' THEN 0 WHEN 'SERVER_SCOPE' THEN 1 ELSE 2 END, key`),
    scopeKeys: db.prepare('SELECT key FROM attributes WHERE device_id = ? AND scope = ? ORDER BY key'),
    deleteRange: db.prepare('DELETE FROM telemetry WHERE device_id = ? AND key = ? AND ts >= ? AND ts < ?'),
    deleteLatest: db.prepare('DELETE FROM telemetry_latest WHERE device_id = ? AND key = ? AND ts >= ? AND ts < ?'),
    rewriteLatest: db.prepare(`INSERT INTO telemetry_latest (device_id, key, ts, type, value)
      SELECT device_id, key, ts, type, value FROM telemetry WHERE device_id = @deviceId AND key = @key
      ORDER BY ts DESC LIMIT 1 ON CONFLICT (device_id, key) DO NOTHING`),
    // A null profile id means every device (ThingsBoard: deviceProfileId is optional).
    profileTelemetryKeys: db.prepare(`SELECT DISTINCT l.key FROM telemetry_latest l JOIN devices d ON d.id = l.device_id
      WHERE @profileId IS NULL OR d.profile_id = @profileId ORDER BY l.key`),
    profileAttributeKeys: db.prepare(`SELECT DISTINCT a.key FROM attributes a JOIN devices d ON d.id = a.device_id
      WHERE @profileId IS NULL OR d.profile_id = @profileId ORDER BY a.key`),
    profileNames: db.prepare(`SELECT id, name FROM device_profiles p
      WHERE @activeOnly = 0 OR EXISTS (SELECT 1 FROM devices d WHERE d.profile_id = p.id) ORDER BY name`),
  };
  const keys = (rows: unknown[]) => (rows as { key: string }[]).map((r) => r.key);

  return {
    telemetryKeys: (deviceId) => keys(q.telemetryKeys.all(deviceId)),
    attributeKeys: (deviceId, scope?: Scope) => keys(scope ? q.scopeKeys.all(deviceId, scope) : q.attributeKeys.all(deviceId)),
    deleteTelemetry(deviceId, keyList, { startTs, endTs, deleteLatest, rewriteLatest }: TelemetryDelete) {
      for (const key of keyList) {
        q.deleteRange.run(deviceId, key, startTs, endTs);
        if (!deleteLatest) continue;
        const removed = q.deleteLatest.run(deviceId, key, startTs, endTs).changes > 0;
        if (removed && rewriteLatest) q.rewriteLatest.run({ deviceId, key });
      }
    },
    profileTelemetryKeys: (profileId) => keys(q.profileTelemetryKeys.all({ profileId })),
    profileAttributeKeys: (profileId) => keys(q.profileAttributeKeys.all({ profileId })),
    profileNames: (activeOnly) => q.profileNames.all({ activeOnly: activeOnly ? 1 : 0 }) as { id: string; name: string }[],
  };
}
