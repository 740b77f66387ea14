// The embedded default store: one SQLite file (WAL, every commit synced before it is answered:
// see group-commit.ts) through better-sqlite3.
// Statements are prepared once; device lookups by token are cached for the hot path.
import type { ConnectionOptions } from './sqlite-connection.js';
import type Database from 'better-sqlite3';
import { openStoreFile } from './sqlite-file.js';
import { createGroupCommit } from './group-commit.js';
import { createTelemetryCommitter } from './telemetry-committer.js';
import { createWriteOutages } from './write-outages.js';
import { fromRow, pick, toCell, type KvRow } from './sqlite-values.js';
import {
  apiKeyCells, apiKeyFrom, customerCells, customerFrom, deviceCells, deviceFrom, insertOf, many, one, OTA_INFO_COLUMNS, otaCells, otaFrom, profileCells, profileFrom, rpcFrom,
  updateOf, userCells, userFrom, type Row,
} from './sqlite-rows.js';
import { createLists } from './sqlite-list-specs.js';
import { createKeyQueries } from './sqlite-keys.js';
import { createSeriesReads } from './sqlite-series.js';
import { createCredentialQueries } from './sqlite-credentials.js';
import { createSavedStateQuery } from './sqlite-saved-states.js';
import { createTelemetryWriter } from './sqlite-telemetry.js';
import { createRetention, ttlWrite } from './sqlite-retention.js';
import { DeletedMeanwhile, type ClaimRecord, type DeviceRecord, type KvEntry, type RuleRecord, type Scope, type Store } from './types.js';

/** Devices whose attributes are kept in memory (an entry is a few hundred bytes per attribute). */
const ATTRIBUTE_CACHE_DEVICES = 50_000;

export interface StoreOptions extends ConnectionOptions {
  /** The number of writes of each transaction the group commit runs (dhi serve --metrics). */
  onCommitBatch?(writes: number): void;
  /** write-outages.ts: how long writes must go through before a spell of refusals is over. */
  outageQuietMs?: number;
  /**
   * sqlite-retention.ts: the server's time-series TTL in seconds (0: none), the age in seconds past
   * which ended persistent RPCs go (0: never), and how often a cleanup pass starts.
   */
  ttlSeconds?: number;
  rpcTtlSeconds?: number;
  retentionIntervalMs?: number;
}

/** How often a retention pass starts (a pass with nothing to delete costs ~5 µs per series). */
const RETENTION_INTERVAL_MS = 10_000;

/**
 * `options`: settings of every connection to the file (tests fill a store with maxPageCount), hooks,
 * and how soon a spell of refused writes ends (tests: at once, outageQuietMs 0).
 */
export function createSqliteStore(path: string, options: StoreOptions = {}): Store {
  // The connection settings also go to the telemetry worker, which takes no functions.
  const { onCommitBatch, outageQuietMs, ttlSeconds = 0, rpcTtlSeconds = 0, retentionIntervalMs = RETENTION_INTERVAL_MS, ...connection } = options;
  const onDisk = path !== ':memory:';
  const { db, release } = openStoreFile(path, connection);
  const telemetry = createTelemetryWriter(db);
  const foldAll = db.transaction(() => telemetry.fold({ all: true }));
  const committer = onDisk ? createTelemetryCommitter(path, connection) : undefined;
  const group = createGroupCommit(db, telemetry, committer, onCommitBatch, createWriteOutages(outageQuietMs));
  const lists = createLists(db);
  const keyQueries = createKeyQueries(db, telemetry.settle);
  const retention = createRetention(db, { ttlSeconds, rpcTtlSeconds, intervalMs: retentionIntervalMs });
  retention.start(group.write);
  const writeWithTtl = ttlWrite(telemetry, retention);

  const q = {
    deviceByToken: db.prepare("SELECT * FROM devices WHERE token = ? AND credentials_type = 'ACCESS_TOKEN'"),
    deviceById: db.prepare('SELECT * FROM devices WHERE id = ?'),
    deviceByCredentialsId: db.prepare('SELECT * FROM devices WHERE token = ?'),
    deviceByCredentialsUuid: db.prepare('SELECT * FROM devices WHERE credentials_uuid = ?'),
    deviceByName: db.prepare('SELECT * FROM devices WHERE name = ?'),
    deviceTypes: db.prepare('SELECT DISTINCT type FROM devices ORDER BY type'),
    devicesByProfile: db.prepare('SELECT * FROM devices WHERE profile_id = ? ORDER BY created_time, name'),
    insertDevice: insertOf(db, 'devices', deviceCells),
    updateDevice: updateOf(db, 'devices', deviceCells),
    deleteDevice: db.prepare('DELETE FROM devices WHERE id = ?'),
    rpcSeq: db.prepare('SELECT rpc_seq FROM devices WHERE id = ?').pluck(),
    raiseRpcSeq: db.prepare('UPDATE devices SET rpc_seq = max(rpc_seq, ?) WHERE id = ?'),
    upsertAttribute: db.prepare(`INSERT INTO attributes (device_id, scope, key, type, value, last_update_ts)
      VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (device_id, scope, key)
      DO UPDATE SET type=excluded.type, value=excluded.value, last_update_ts=excluded.last_update_ts`),
    deleteAttribute: db.prepare('DELETE FROM attributes WHERE device_id = ? AND scope = ? AND key = ?'),
    attributes: db.prepare(`SELECT key, last_update_ts AS ts, type, value FROM attributes
      WHERE device_id = ? AND scope = ? ORDER BY key`),
    insertRpc: db.prepare(`INSERT INTO rpc (id, device_id, request_id, method, params, oneway, persistent, status,
      expiration_time, created_time, response, retries, additional_info) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`),
    updateRpc: db.prepare('UPDATE rpc SET status = ?, response = ?, retries = ? WHERE id = ?'),
    deleteRpc: db.prepare('DELETE FROM rpc WHERE id = ?'),
    rpcById: db.prepare('SELECT * FROM rpc WHERE id = ?'),
    rpcByRequestId: db.prepare('SELECT * FROM rpc WHERE device_id = ? AND request_id = ?'),
    pendingPersistentRpcs: db.prepare(`SELECT * FROM rpc WHERE persistent = 1 AND status = 'QUEUED'
      AND expiration_time > ? ORDER BY device_id, request_id`),
    setClaim: db.prepare('INSERT OR REPLACE INTO claims (device_id, secret_key, expires_at, cached_until) VALUES (?, ?, ?, ?)'),
    claim: db.prepare('SELECT device_id AS deviceId, secret_key AS secretKey, expires_at AS expiresAt, cached_until AS cachedUntil FROM claims WHERE device_id = ?'),
    deleteClaim: db.prepare('DELETE FROM claims WHERE device_id = ?'),
    insertProfile: insertOf(db, 'device_profiles', profileCells),
    updateProfile: updateOf(db, 'device_profiles', profileCells),
    deleteProfile: db.prepare('DELETE FROM device_profiles WHERE id = ?'),
    profileById: db.prepare('SELECT * FROM device_profiles WHERE id = ?'),
    profileByName: db.prepare('SELECT * FROM device_profiles WHERE name = ?'),
    profileByKey: db.prepare('SELECT * FROM device_profiles WHERE provision_key = ?'),
    defaultProfile: db.prepare('SELECT * FROM device_profiles WHERE is_default = 1 LIMIT 1'),
    devicesUsingProfile: db.prepare('SELECT count(*) AS n FROM devices WHERE profile_id = ?'),
    insertOta: insertOf(db, 'ota_packages', otaCells),
    updateOta: updateOf(db, 'ota_packages', otaCells),
    setOtaData: db.prepare('UPDATE ota_packages SET data = ? WHERE id = ?'),
    deleteOta: db.prepare('DELETE FROM ota_packages WHERE id = ?'),
    otaById: db.prepare(`SELECT ${OTA_INFO_COLUMNS} FROM ota_packages WHERE id = ?`),
    otaData: db.prepare('SELECT data FROM ota_packages WHERE id = ?'),
    otaInUse: db.prepare(`SELECT EXISTS (SELECT 1 FROM devices WHERE firmware_id = @id OR software_id = @id)
      OR EXISTS (SELECT 1 FROM device_profiles WHERE firmware_id = @id OR software_id = @id) AS used`),
    insertCustomer: insertOf(db, 'customers', customerCells),
    updateCustomer: updateOf(db, 'customers', customerCells),
    deleteCustomer: db.prepare('DELETE FROM customers WHERE id = ?'),
    customerById: db.prepare('SELECT * FROM customers WHERE id = ?'),
    customerByTitle: db.prepare('SELECT * FROM customers WHERE title = ?'),
    insertUser: insertOf(db, 'users', userCells),
    updateUser: updateOf(db, 'users', userCells),
    userById: db.prepare('SELECT * FROM users WHERE id = ?'),
    userByEmail: db.prepare('SELECT * FROM users WHERE email = ?'),
    deleteUser: db.prepare('DELETE FROM users WHERE id = ?'),
    insertApiKey: insertOf(db, 'api_keys', apiKeyCells),
    updateApiKey: updateOf(db, 'api_keys', apiKeyCells),
    deleteApiKey: db.prepare('DELETE FROM api_keys WHERE id = ?'),
    apiKeyById: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
    apiKeyByHash: db.prepare('SELECT * FROM api_keys WHERE value_hash = ?'),
    setRule: db.prepare('INSERT OR REPLACE INTO rules (method, type, reply) VALUES (?, ?, ?)'),
    deleteRule: db.prepare('DELETE FROM rules WHERE method = ?'),
    rule: db.prepare('SELECT * FROM rules WHERE method = ?'),
    rules: db.prepare('SELECT * FROM rules ORDER BY method'),
    setting: db.prepare('SELECT value FROM settings WHERE key = ?'),
    setSetting: db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)'),
  };

  // The hot path authenticates every request by token; cache hits cost one Map lookup.
  const byToken = new Map<string, DeviceRecord>();
  const forget = (id: string) => {
    for (const [token, device] of byToken) if (device.id === id) byToken.delete(token);
    attributeCache.delete(id);
    telemetry.forgetDevice(id);
  };
  // Device attribute reads (op 3, every poll answer) come from memory: a device's entry holds its
  // scopes as read, frozen, and is dropped by every write to its attributes and by its deletion.
  const attributeCache = new Map<string, Partial<Record<Scope, KvEntry[]>>>();
  function cachedAttributes(deviceId: string, scope: Scope): KvEntry[] {
    let scopes = attributeCache.get(deviceId);
    const cached = scopes?.[scope];
    if (cached) return cached;
    const entries = Object.freeze((q.attributes.all(deviceId, scope) as KvRow[]).map((r) => Object.freeze(fromRow(r))));
    if (!scopes) {
      // Oldest first out: Map keeps insertion order.
      if (attributeCache.size >= ATTRIBUTE_CACHE_DEVICES) attributeCache.delete(attributeCache.keys().next().value!);
      attributeCache.set(deviceId, (scopes = {}));
    }
    return (scopes[scope] = entries as KvEntry[]);
  }
  const count = (stmt: Database.Statement, ...args: unknown[]) => (stmt.get(...args) as { n: number }).n;
  const ruleFrom = (r: Row | undefined): RuleRecord | undefined =>
    r && { method: r.method as string, type: r.type as RuleRecord['type'], reply: r.reply ? JSON.parse(r.reply as string) : null };

  const readSeries = createSeriesReads(db, keyQueries.reads.telemetryKeys);

  const store: Store = {
    ...keyQueries.store,
    ...createCredentialQueries(db),
    ...createSavedStateQuery(db, (read) => group.read(telemetry.foldScope(null), read)),
    write: group.write,
    watchOutages: group.watchOutages,
    async close() {
      await retention.stop();
      await group.close();
      await committer?.close();
      // The file holds everything in its tables once closed. A full disk may refuse the fold: the log
      // keeps the rows, and reads after the next open fold them first.
      try {
        foldAll();
      } catch {
        // kept in the log
      }
      db.close();
      release();
    },

    deviceByToken(token) {
      let device = byToken.get(token);
      if (device) return device;
      const row = q.deviceByToken.get(token) as Row | undefined;
      if (!row) return undefined;
      device = deviceFrom(row);
      byToken.set(token, device);
      return device;
    },
    deviceById: one(q.deviceById, deviceFrom),
    deviceByCredentialsId: one(q.deviceByCredentialsId, deviceFrom),
    deviceByCredentialsUuid: one(q.deviceByCredentialsUuid, deviceFrom),
    deviceByName: one(q.deviceByName, deviceFrom),
    listDevices: lists.devices,
    deviceTypes: () => (q.deviceTypes.all() as { type: string }[]).map((r) => r.type),
    devicesByProfile: many(q.devicesByProfile, deviceFrom),
    insertDevice: (device) => void q.insertDevice.run(deviceCells(device)),
    updateDevice(device) {
      forget(device.id);
      q.updateDevice.run(deviceCells(device));
    },
    deleteDevice(id) {
      forget(id);
      q.deleteDevice.run(id);
    },
    rpcRequestIdMark: (deviceId) => (q.rpcSeq.get(deviceId) as number | undefined) ?? 0,
    raiseRpcRequestIdMark: (deviceId, next) => void q.raiseRpcSeq.run(next, deviceId),

    writeTelemetry(deviceId, entries, done, ctx, ttlSeconds = 0) {
      if (ttlSeconds === 0) return group.writeBuffered({ deviceId, entries }, done, ctx);
      group.write(writeWithTtl, { deviceId, entries, ttlSeconds }).then(() => done(null, ctx), (error: Error) => done(error, ctx));
    },
    readTelemetry: (deviceId, read) => group.read(telemetry.foldScope(deviceId), () => readSeries(deviceId, read)),
    foldTelemetryLog: () => group.read(telemetry.foldScope(null), telemetry.books),
    profileTelemetryKeys: (profileId) => group.read(telemetry.foldScope(null), () => keyQueries.reads.profileTelemetryKeys(profileId)),

    upsertAttributes(deviceId, scope, entries) {
      attributeCache.delete(deviceId);
      try {
        for (const e of entries) q.upsertAttribute.run(deviceId, scope, e.key, e.type, toCell(e), e.ts);
      } catch (error) {
        // The foreign key checks the device in the same seek that finds its attributes' place; the
        // statement that failed changed nothing (the first: every entry is of the same device).
        if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new DeletedMeanwhile(`no device ${deviceId}`);
        throw error;
      }
    },
    deleteAttributes(deviceId, scope, keys) {
      attributeCache.delete(deviceId);
      return keys.filter((key) => q.deleteAttribute.run(deviceId, scope, key).changes > 0);
    },
    attributes: (deviceId, scope: Scope, keys) => pick(cachedAttributes(deviceId, scope), keys),

    insertRpc: (r) => void q.insertRpc.run(r.id, r.deviceId, r.requestId, r.method, r.params,
      r.oneway ? 1 : 0, r.persistent ? 1 : 0, r.status, r.expirationTime, r.createdTime, r.response, r.retries,
      r.additionalInfo),
    updateRpc(id, patch) {
      const current = store.rpcById(id);
      if (!current) return;
      const next = { ...current, ...patch };
      q.updateRpc.run(next.status, next.response, next.retries, id);
    },
    deleteRpc: (id) => void q.deleteRpc.run(id),
    rpcById: one(q.rpcById, rpcFrom),
    rpcByRequestId: one(q.rpcByRequestId, rpcFrom),
    pendingPersistentRpcs: many(q.pendingPersistentRpcs, rpcFrom),
    listRpcs: (deviceId, query, status) => lists.rpcs(query, { deviceId, status }),

    setClaim: (c: ClaimRecord) => void q.setClaim.run(c.deviceId, c.secretKey, c.expiresAt, c.cachedUntil),
    claim: (deviceId) => q.claim.get(deviceId) as ClaimRecord | undefined,
    deleteClaim: (deviceId) => void q.deleteClaim.run(deviceId),

    insertProfile: (p) => void q.insertProfile.run(profileCells(p)),
    updateProfile: (p) => void q.updateProfile.run(profileCells(p)),
    deleteProfile: (id) => void q.deleteProfile.run(id),
    profileById: one(q.profileById, profileFrom),
    profileByName: one(q.profileByName, profileFrom),
    profileByProvisionKey: one(q.profileByKey, profileFrom),
    defaultProfile: () => profileFrom(q.defaultProfile.get() as Row),
    listProfiles: lists.profiles,
    devicesUsingProfile: (profileId) => count(q.devicesUsingProfile, profileId),

    insertOta: (o) => void q.insertOta.run(otaCells(o)),
    updateOta: (o) => void q.updateOta.run(otaCells(o)),
    setOtaData: (id, data) => void q.setOtaData.run(data, id),
    deleteOta: (id) => void q.deleteOta.run(id),
    otaById: one(q.otaById, otaFrom),
    otaData: (id) => (q.otaData.get(id) as { data: Buffer | null } | undefined)?.data ?? undefined,
    listOta: lists.ota,
    otaInUse: (id) => (q.otaInUse.get({ id }) as { used: number }).used === 1,

    insertCustomer: (c) => void q.insertCustomer.run(customerCells(c)),
    updateCustomer: (c) => void q.updateCustomer.run(customerCells(c)),
    deleteCustomer(id) {
      byToken.clear(); // devices of the customer become unassigned
      q.deleteCustomer.run(id);
    },
    customerById: one(q.customerById, customerFrom),
    customerByTitle: one(q.customerByTitle, customerFrom),
    listCustomers: lists.customers,
    insertUser: (u) => void q.insertUser.run(userCells(u)),
    updateUser: (u) => void q.updateUser.run(userCells(u)),
    userById: one(q.userById, userFrom),
    userByEmail: one(q.userByEmail, userFrom),
    deleteUser: (id) => void q.deleteUser.run(id),
    listUsers: lists.users,

    insertApiKey: (k) => void q.insertApiKey.run(apiKeyCells(k)),
    updateApiKey: (k) => void q.updateApiKey.run(apiKeyCells(k)),
    deleteApiKey: (id) => void q.deleteApiKey.run(id),
    apiKeyById: one(q.apiKeyById, apiKeyFrom),
    apiKeyByHash: one(q.apiKeyByHash, apiKeyFrom),
    listApiKeys: (userId, query) => lists.apiKeys(query, { userId }),

    setRule: (r) => void q.setRule.run(r.method, r.type, r.reply === undefined ? null : JSON.stringify(r.reply)),
    deleteRule: (method) => q.deleteRule.run(method).changes > 0,
    rule: (method) => ruleFrom(q.rule.get(method) as Row | undefined),
    listRules: () => (q.rules.all() as Row[]).map((r) => ruleFrom(r)!),

    setting: (key) => (q.setting.get(key) as { value: string } | undefined)?.value,
    setSetting: (key, value) => void q.setSetting.run(key, value),
  };
  return store;
}
