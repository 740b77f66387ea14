// Schema and migrations of the embedded store, keyed by PRAGMA user_version.
// Values live in an untyped column (no affinity, so "007" stays text) next to their type tag.
import type { Database } from 'better-sqlite3';

const MIGRATIONS: string[] = [
  `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE customers (
    id TEXT PRIMARY KEY, title TEXT NOT NULL UNIQUE, email TEXT, created_time INTEGER NOT NULL);
  CREATE TABLE users (
    id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, authority TEXT NOT NULL,
    customer_id TEXT REFERENCES customers(id) ON DELETE CASCADE,
    first_name TEXT, last_name TEXT, password_hash TEXT, created_time INTEGER NOT NULL);
  CREATE TABLE device_profiles (
    id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, type TEXT NOT NULL, transport_type TEXT NOT NULL,
    description TEXT, is_default INTEGER NOT NULL DEFAULT 0, provision_type TEXT NOT NULL,
    provision_key TEXT UNIQUE, provision_secret TEXT, firmware_id TEXT, software_id TEXT,
    created_time INTEGER NOT NULL);
  CREATE TABLE devices (
    id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, type TEXT NOT NULL, label TEXT,
    token TEXT NOT NULL UNIQUE, profile_id TEXT NOT NULL REFERENCES device_profiles(id),
    customer_id TEXT REFERENCES customers(id) ON DELETE SET NULL,
    firmware_id TEXT, software_id TEXT, additional_info TEXT, created_time INTEGER NOT NULL,
    rpc_seq INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE telemetry (
    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE, key TEXT NOT NULL,
    ts INTEGER NOT NULL, type TEXT NOT NULL, value,
    PRIMARY KEY (device_id, key, ts)) WITHOUT ROWID;
  CREATE TABLE telemetry_latest (
    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE, key TEXT NOT NULL,
    ts INTEGER NOT NULL, type TEXT NOT NULL, value,
    PRIMARY KEY (device_id, key)) WITHOUT ROWID;
  CREATE TABLE attributes (
    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE, scope TEXT NOT NULL,
    key TEXT NOT NULL, type TEXT NOT NULL, value, last_update_ts INTEGER NOT NULL,
    PRIMARY KEY (device_id, scope, key)) WITHOUT ROWID;
  CREATE TABLE rpc (
    id TEXT PRIMARY KEY, device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
    request_id INTEGER NOT NULL, method TEXT NOT NULL, params TEXT NOT NULL,
    oneway INTEGER NOT NULL, persistent INTEGER NOT NULL, status TEXT NOT NULL,
    expiration_time INTEGER NOT NULL, created_time INTEGER NOT NULL, response TEXT,
    retries INTEGER NOT NULL DEFAULT 0, additional_info TEXT,
    UNIQUE (device_id, request_id));
  CREATE INDEX rpc_queue ON rpc (device_id, status, created_time);
  CREATE TABLE claims (
    device_id TEXT PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
    secret_key TEXT NOT NULL, expires_at INTEGER NOT NULL);
  CREATE TABLE ota_packages (
    id TEXT PRIMARY KEY, type TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, tag TEXT,
    url TEXT, profile_id TEXT, file_name TEXT, content_type TEXT, checksum_algorithm TEXT,
    checksum TEXT, data_size INTEGER, data BLOB, created_time INTEGER NOT NULL,
    UNIQUE (type, title, version));
  CREATE TABLE rules (method TEXT PRIMARY KEY, type TEXT NOT NULL, reply TEXT);
  `,
  // Credentials other than access tokens (provisioning, POST /api/device/credentials): the token
  // column keeps the credentials id, unique over all types, as ThingsBoard's credentials_id.
  `
  ALTER TABLE devices ADD COLUMN credentials_type TEXT NOT NULL DEFAULT 'ACCESS_TOKEN';
  ALTER TABLE devices ADD COLUMN credentials_value TEXT;
  CREATE INDEX devices_customer ON devices (customer_id, created_time);
  CREATE INDEX devices_profile ON devices (profile_id);
  `,
  // Disabled user credentials, and outdated tokens (changePassword, logout, disabled credentials).
  `
  ALTER TABLE users ADD COLUMN credentials_enabled INTEGER NOT NULL DEFAULT 1;
  CREATE TABLE token_outdating (id TEXT PRIMARY KEY, outdated_at INTEGER NOT NULL);
  `,
  // Claim windows stay cached after they expire, as in ThingsBoard's claimDevices cache.
  `
  ALTER TABLE claims ADD COLUMN cached_until INTEGER NOT NULL DEFAULT 0;
  UPDATE claims SET cached_until = expires_at;
  `,
  // Time series keyed by integers: each device gets a number and each key an id in a dictionary
  // (ThingsBoard's key_dictionary), instead of the device UUID and the key text in every row. A
  // three-key message went in at ~9.5 µs of SQLite and now ~7.4 (store/sqlite-telemetry.ts). Triggers number
  // a new device and delete a deleted device's rows (a foreign key would look the device up per row).
  `
  ALTER TABLE devices ADD COLUMN num INTEGER;
  UPDATE devices SET num = rowid;
  CREATE UNIQUE INDEX devices_num ON devices (num);
  CREATE TRIGGER devices_number AFTER INSERT ON devices WHEN NEW.num IS NULL BEGIN
    UPDATE devices SET num = (SELECT IFNULL(MAX(num), 0) + 1 FROM devices) WHERE rowid = NEW.rowid;
  END;
  CREATE TABLE telemetry_keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
  INSERT INTO telemetry_keys (key) SELECT key FROM telemetry_latest UNION SELECT key FROM telemetry ORDER BY 1;
  CREATE TABLE telemetry_new (
    device INTEGER NOT NULL, key INTEGER NOT NULL, ts INTEGER NOT NULL, type TEXT NOT NULL, value,
    PRIMARY KEY (device, key, ts)) WITHOUT ROWID;
  INSERT INTO telemetry_new SELECT d.num, k.id, t.ts, t.type, t.value
    FROM telemetry t JOIN devices d ON d.id = t.device_id JOIN telemetry_keys k ON k.key = t.key;
  CREATE TABLE telemetry_latest_new (
    device INTEGER NOT NULL, key INTEGER NOT NULL, ts INTEGER NOT NULL, type TEXT NOT NULL, value,
    PRIMARY KEY (device, key)) WITHOUT ROWID;
  INSERT INTO telemetry_latest_new SELECT d.num, k.id, t.ts, t.type, t.value
    FROM telemetry_latest t JOIN devices d ON d.id = t.device_id JOIN telemetry_keys k ON k.key = t.key;
  DROP TABLE telemetry;
  DROP TABLE telemetry_latest;
  ALTER TABLE telemetry_new RENAME TO telemetry;
  ALTER TABLE telemetry_latest_new RENAME TO telemetry_latest;
  CREATE TRIGGER devices_telemetry AFTER DELETE ON devices BEGIN
    DELETE FROM telemetry WHERE device = OLD.num;
    DELETE FROM telemetry_latest WHERE device = OLD.num;
  END;
  `,
  // Every field of ThingsBoard's model for the entities dhi keeps (issue 27): contact fields,
  // additionalInfo, externalId, the optimistic-lock version, device data and profile data.
  `
  ALTER TABLE customers ADD COLUMN country TEXT;
  ALTER TABLE customers ADD COLUMN state TEXT;
  ALTER TABLE customers ADD COLUMN city TEXT;
  ALTER TABLE customers ADD COLUMN address TEXT;
  ALTER TABLE customers ADD COLUMN address2 TEXT;
  ALTER TABLE customers ADD COLUMN zip TEXT;
  ALTER TABLE customers ADD COLUMN phone TEXT;
  ALTER TABLE customers ADD COLUMN additional_info TEXT;
  ALTER TABLE customers ADD COLUMN external_id TEXT;
  ALTER TABLE customers ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE users ADD COLUMN phone TEXT;
  ALTER TABLE users ADD COLUMN additional_info TEXT;
  ALTER TABLE users ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE devices ADD COLUMN device_data TEXT;
  ALTER TABLE devices ADD COLUMN external_id TEXT;
  ALTER TABLE devices ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE device_profiles ADD COLUMN image TEXT;
  ALTER TABLE device_profiles ADD COLUMN default_queue_name TEXT;
  ALTER TABLE device_profiles ADD COLUMN configuration TEXT;
  ALTER TABLE device_profiles ADD COLUMN transport_configuration TEXT;
  ALTER TABLE device_profiles ADD COLUMN external_id TEXT;
  ALTER TABLE device_profiles ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE ota_packages ADD COLUMN additional_info TEXT;
  ALTER TABLE ota_packages ADD COLUMN external_id TEXT;
  `,
  // API keys (ThingsBoard's ApiKeyController): the value is kept only as its SHA-256. User
  // activation: a new user's token, as ThingsBoard's user_credentials.activate_token.
  `
  ALTER TABLE users ADD COLUMN activate_token TEXT;
  ALTER TABLE users ADD COLUMN activate_token_exp INTEGER;
  CREATE UNIQUE INDEX users_activate_token ON users (activate_token);
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    value_hash TEXT NOT NULL UNIQUE, description TEXT NOT NULL, enabled INTEGER NOT NULL,
    expiration_time INTEGER NOT NULL, created_time INTEGER NOT NULL);
  CREATE INDEX api_keys_user ON api_keys (user_id, created_time);
  `,
  // Retention (sqlite-retention.ts): the values written with a TTL of their own, by expiry. A
  // deleted device's entries go with its rows (its number may be given to a later device).
  `
  CREATE TABLE telemetry_expiry (
    expires INTEGER NOT NULL, device INTEGER NOT NULL, key INTEGER NOT NULL, ts INTEGER NOT NULL,
    PRIMARY KEY (expires, device, key, ts)) WITHOUT ROWID;
  DROP TRIGGER devices_telemetry;
  CREATE TRIGGER devices_telemetry AFTER DELETE ON devices BEGIN
    DELETE FROM telemetry WHERE device = OLD.num;
    DELETE FROM telemetry_latest WHERE device = OLD.num;
    DELETE FROM telemetry_expiry WHERE device = OLD.num;
  END;
  `,
  // The telemetry ingest log (store/sqlite-telemetry-log.ts): batches append to it, folds move its
  // rows into telemetry and telemetry_latest. A folded row of a device that is gone is dropped: so that
  // a new device never takes a deleted one's number (and its rows), numbers now come from a counter.
  `
  CREATE TABLE telemetry_log (device INTEGER NOT NULL, key INTEGER NOT NULL, ts INTEGER NOT NULL, type TEXT NOT NULL, value);
  CREATE TABLE device_numbers (last INTEGER NOT NULL);
  INSERT INTO device_numbers SELECT IFNULL(MAX(num), 0) FROM devices;
  DROP TRIGGER devices_number;
  CREATE TRIGGER devices_number AFTER INSERT ON devices WHEN NEW.num IS NULL BEGIN
    UPDATE device_numbers SET last = last + 1;
    UPDATE devices SET num = (SELECT last FROM device_numbers) WHERE rowid = NEW.rowid;
  END;
  `,
  // Only persistent RPCs are stored (rpc-service.ts), as in ThingsBoard: the non-persistent rows earlier
  // versions kept go. Retention (sqlite-retention.ts, --rpc-ttl) takes ended commands by age.
  `
  DELETE FROM rpc WHERE persistent = 0;
  CREATE INDEX rpc_created ON rpc (created_time);
  `,
  // Device credentials' own id and optimistic-lock version (ThingsBoard's DeviceCredentials is a
  // BaseData<DeviceCredentialsId> with HasVersion), kept on the device row that holds them; the
  // devices saved before get a random (version 4) id.
  `
  ALTER TABLE devices ADD COLUMN credentials_uuid TEXT;
  ALTER TABLE devices ADD COLUMN credentials_version INTEGER NOT NULL DEFAULT 1;
  UPDATE devices SET credentials_uuid = lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4'
    || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (random() & 3), 1)
    || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)));
  CREATE UNIQUE INDEX devices_credentials_uuid ON devices (credentials_uuid);
  `,
  // The telemetry log keeps a row's type as its code (store/sqlite-telemetry-log.ts TYPE_NAME), not
  // its name; the rows waiting keep their rowids, which are the log's order.
  `
  CREATE TABLE telemetry_log_coded (device INTEGER NOT NULL, key INTEGER NOT NULL, ts INTEGER NOT NULL, type INTEGER NOT NULL, value);
  INSERT INTO telemetry_log_coded (rowid, device, key, ts, type, value)
    SELECT rowid, device, key, ts, CASE type WHEN 'BOOLEAN' THEN 0 WHEN 'LONG' THEN 1 WHEN 'DOUBLE' THEN 2 WHEN 'STRING' THEN 3 WHEN 'JSON' THEN 4 END, value
    FROM telemetry_log;
  DROP TABLE telemetry_log;
  ALTER TABLE telemetry_log_coded RENAME TO telemetry_log;
  `,
  // A fold of every row goes in slices (store/sqlite-telemetry-log.ts): the rows of the log that the
  // slices so far applied (rowid <= last_rowid and device <= last_device); no row while none is under way.
  `
  CREATE TABLE telemetry_fold_progress (last_rowid INTEGER NOT NULL, last_device INTEGER NOT NULL);
  `,
];

/** The newest schema this dhi knows (PRAGMA user_version); a newer file is refused (sqlite-file.ts). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** `to`: the schema version to stop at (tests build a database as an earlier dhi left it). */
export function migrate(db: Database, defaultProfileId: string, now: number, to = SCHEMA_VERSION): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let v = version; v < to; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]);
      if (v === 0) {
        db.prepare(
          `INSERT INTO device_profiles (id, name, type, transport_type, is_default, provision_type, created_time)
           VALUES (?, 'default', 'DEFAULT', 'DEFAULT', 1, 'DISABLED', ?)`,
        ).run(defaultProfileId, now);
      }
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
