// The storage port. The embedded default is SQLite (sqlite.ts); a server database can implement
// the same interface later. Reads are synchronous, but for the time series, which are read through
// readTelemetry (acknowledged telemetry may still wait to be folded into them); every write goes
// through write(), which groups the writes of one event-loop turn into one committed transaction.
// Records are internal; the enumerations they share with the wire come from the contract.
import type { Schema } from '../../spec/types.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A device's saved state keys (Store.savedStates). */
export interface SavedState {
  deviceId: string;
  createdTime: number;
  entries: KvEntry[];
}

/** A write names a row (a device) deleted while the request was on its way. */
export class DeletedMeanwhile extends Error {}

/**
 * The store cannot take writes for now: its disk (or its size limit) is full, the disk failed a write
 * or a sync, or another process holds the database. Nothing of the write was kept; reads go on, and
 * writes succeed again once the cause is gone, without a restart.
 */
export class StoreUnavailable extends Error {
  constructor(
    message: string,
    /** SQLite's extended result code (SQLITE_FULL, SQLITE_IOERR_FSYNC, ...). */
    readonly code: string,
  ) {
    super(message);
    this.name = 'StoreUnavailable';
  }
}

/** The store's file cannot be used (not a database, a newer schema, no access, held by another dhi serve): what and what to do. */
export class StoreFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreFileError';
  }
}

/** A spell of writes refused with StoreUnavailable: told once when it begins and once when it ends. */
export type WriteOutage =
  | { state: 'began'; error: StoreUnavailable }
  | { state: 'ended'; refused: number; ms: number };

export type Scope = 'CLIENT_SCOPE' | 'SHARED_SCOPE' | 'SERVER_SCOPE';
export type ValueType = 'BOOLEAN' | 'LONG' | 'DOUBLE' | 'STRING' | 'JSON';

/**
 * A typed value: BOOLEAN boolean; LONG number, or bigint beyond 2^53 (exact over the signed 64-bit
 * range); DOUBLE number; STRING string; JSON its compact text with the numbers as sent.
 */
export type KvValue = boolean | number | bigint | string;

/** One typed key-value data point (telemetry) or attribute (ts = lastUpdateTs). */
export interface KvEntry {
  key: string;
  type: ValueType;
  value: KvValue;
  ts: number;
}

/** ThingsBoard's DeviceCredentialsType values that dhi stores (LwM2M is not modelled). */
export type CredentialsType = Schema<'CredentialsType'>;

export interface DeviceRecord {
  id: string;
  name: string;
  type: string;
  label: string | null;
  /**
   * The credentials id (unique over all devices): the access token of an ACCESS_TOKEN device; for
   * the other types the id ThingsBoard derives (device-records.ts). Only access tokens open the HTTP API.
   */
  token: string;
  credentialsType: CredentialsType;
  /** X509_CERTIFICATE: the certificate text; MQTT_BASIC: the JSON of {clientId, userName, password}. */
  credentialsValue: string | null;
  /** The credentials' own id (ThingsBoard's DeviceCredentialsId) and optimistic-lock version. */
  credentialsUuid: string;
  credentialsVersion: number;
  profileId: string;
  customerId: string | null;
  firmwareId: string | null;
  softwareId: string | null;
  /** Any JSON (ThingsBoard's JsonNode). */
  additionalInfo: JsonValue | null;
  /** ThingsBoard's DeviceData as saved; null: the DEFAULT one for the profile's transport type. */
  deviceData: JsonObject | null;
  externalId: string | null;
  /** ThingsBoard's optimistic lock: 1 when created, one more at every save. */
  version: number;
  createdTime: number;
}

export type ProvisionType = Schema<'ProvisionConfiguration'>['type'];

export interface ProfileRecord {
  id: string;
  name: string;
  type: string;
  transportType: string;
  description: string | null;
  isDefault: boolean;
  provisionType: ProvisionType;
  provisionKey: string | null;
  provisionSecret: string | null;
  firmwareId: string | null;
  softwareId: string | null;
  image: string | null;
  defaultQueueName: string | null;
  /** profileData.configuration and .transportConfiguration as saved; null: DEFAULT and the transport type. */
  configuration: JsonObject | null;
  transportConfiguration: JsonObject | null;
  externalId: string | null;
  version: number;
  createdTime: number;
}

export type RpcStatus = Schema<'RpcStatus'>;

export interface RpcRecord {
  id: string;
  deviceId: string;
  /** The per-device integer id the device sees. */
  requestId: number;
  method: string;
  /** The params as JSON text, each number as the caller sent it (1.0 stays 1.0). */
  params: string;
  oneway: boolean;
  persistent: boolean;
  status: RpcStatus;
  expirationTime: number;
  createdTime: number;
  /** The device's reply as sent (raw text); null until answered. */
  response: string | null;
  retries: number;
  /** JSON text as the caller sent it; null when none. */
  additionalInfo: string | null;
}

export interface ClaimRecord {
  deviceId: string;
  secretKey: string;
  expiresAt: number;
  /** When ThingsBoard's claim cache would drop the record: until then no new window replaces it. */
  cachedUntil: number;
}

export type OtaType = Schema<'OtaPackageInput'>['type'];

export interface OtaRecord {
  id: string;
  type: OtaType;
  title: string;
  version: string;
  tag: string | null;
  url: string | null;
  profileId: string | null;
  fileName: string | null;
  contentType: string | null;
  checksumAlgorithm: Schema<'ChecksumAlgorithm'> | null;
  checksum: string | null;
  dataSize: number | null;
  /** Any JSON (ThingsBoard's JsonNode). */
  additionalInfo: JsonValue | null;
  externalId: string | null;
  createdTime: number;
}

/** ThingsBoard's ContactBased fields (customers). */
export interface Contact {
  country: string | null;
  state: string | null;
  city: string | null;
  address: string | null;
  address2: string | null;
  zip: string | null;
  phone: string | null;
  email: string | null;
}

export interface CustomerRecord extends Contact {
  id: string;
  title: string;
  /** Any JSON (ThingsBoard's JsonNode). */
  additionalInfo: JsonValue | null;
  externalId: string | null;
  version: number;
  createdTime: number;
}

export type Authority = Schema<'UserInput'>['authority'];

export interface UserRecord {
  id: string;
  email: string;
  authority: Authority;
  customerId: string | null;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  /** Any JSON (ThingsBoard's JsonNode). */
  additionalInfo: JsonValue | null;
  version: number;
  /** scrypt hash `salt:hash` (hex); null for users that only get tokens from an admin. */
  passwordHash: string | null;
  createdTime: number;
}

/** ThingsBoard's ApiKey (ApiKeyController): a user's key; its value is kept only as a SHA-256 hash. */
export interface ApiKeyRecord {
  id: string;
  userId: string;
  /** Hex SHA-256 of the value (answered once, when the key is created). */
  valueHash: string;
  description: string;
  enabled: boolean;
  /** ms; 0: never expires. */
  expirationTime: number;
  createdTime: number;
}

/** A user's activation token (ThingsBoard's UserCredentials.activateToken) and when it expires (ms). */
export interface Activation {
  token: string;
  expiresAt: number;
}

export interface RuleRecord {
  method: string;
  type: 'static' | 'echo';
  reply: JsonValue;
}

export interface Page<T> {
  data: T[];
  totalElements: number;
}

/** ThingsBoard's PageLink: page, size, a case-insensitive substring search, and a sort. */
export interface ListQuery {
  page: number;
  pageSize: number;
  textSearch?: string;
  /** A column name the list allows (checked by the caller against the list's own set). */
  sortProperty?: string;
  sortOrder?: 'ASC' | 'DESC';
}

export interface DeviceFilter {
  customerId?: string;
  type?: string;
  profileId?: string;
  /** Only devices without a package of their own (set to true to apply). */
  withoutFirmware?: boolean;
  withoutSoftware?: boolean;
  /** Only the devices among these ids, or only those not among them (device infos' `active`). */
  among?: string[];
  notAmong?: string[];
}

export interface UserFilter {
  customerId?: string;
  authority?: Authority;
}

export interface OtaFilter {
  profileId?: string;
  type?: OtaType;
  /** Only packages with data or a url (ThingsBoard's hasData filter of the profile list). */
  hasData?: boolean;
}

export interface TelemetryQuery {
  keys: string[];
  startTs: number;
  endTs: number;
  limit: number;
  order: 'ASC' | 'DESC';
}

/** ThingsBoard's aggregation functions (Aggregation, without NONE). */
export type Aggregation = 'MIN' | 'MAX' | 'AVG' | 'SUM' | 'COUNT';

/** One bucket of one key: the values with startTs <= ts < endTs. */
export interface AggregateQuery {
  key: string;
  agg: Aggregation;
  startTs: number;
  endTs: number;
}

export interface AggregateValue {
  type: ValueType;
  value: KvValue;
}

/** Told a write's outcome once it is durable (error null) or refused; ctx is the caller's own (no closure per write). */
export type Written<C> = (error: Error | null, ctx: C) => void;

export interface TelemetryDelete {
  startTs: number;
  endTs: number;
  deleteLatest: boolean;
  rewriteLatest: boolean;
}

/** The telemetry ingest log's books since the store opened (Store.foldTelemetryLog). */
export interface TelemetryLogBooks {
  /** Rows gathered into the log: one per key of each telemetry write. */
  rows: number;
  /**
   * Folds of the whole log into the time series: those due after enough rows (a generation of slices
   * counts once, at its last slice), and those asked for.
   */
  folds: number;
}

/**
 * The stored time series of one device, which Store.readTelemetry hands its callback: read it inside
 * the callback (a call after the callback has returned throws).
 */
export interface DeviceSeries {
  latest(keys?: string[]): KvEntry[];
  /** Values with startTs <= ts < endTs, `limit` per key, in `order` of ts. */
  range(query: TelemetryQuery): KvEntry[];
  /** One bucket aggregated as ThingsBoard's SQL store does; undefined when it has no point. */
  aggregate(query: AggregateQuery): AggregateValue | undefined;
  /** The ts of a key's first value with fromTs <= ts < endTs (skipping empty buckets). */
  nextTs(key: string, fromTs: number, endTs: number): number | undefined;
  /** The keys with a latest value, sorted. */
  keys(): string[];
}

export interface Store {
  /**
   * Run fn(arg) inside the group-committed transaction; resolves once that transaction has
   * committed. Hot paths pass a module-level fn and its argument instead of a fresh closure.
   */
  write<T, A = undefined>(fn: (arg: A) => T, arg?: A): Promise<T>;
  close(): Promise<void>;
  /**
   * Tells `listener` when writes begin to be refused with StoreUnavailable and when they go through
   * again (once each, not once per write); returns what stops it.
   */
  watchOutages(listener: (outage: WriteOutage) => void): () => void;

  // devices
  /** The device with this access token (ACCESS_TOKEN credentials only: the HTTP device API). */
  deviceByToken(token: string): DeviceRecord | undefined;
  /** The device with this credentials id, of any credentials type. */
  deviceByCredentialsId(credentialsId: string): DeviceRecord | undefined;
  /** The device whose credentials have this id of their own (DeviceRecord.credentialsUuid). */
  deviceByCredentialsUuid(uuid: string): DeviceRecord | undefined;
  deviceById(id: string): DeviceRecord | undefined;
  deviceByName(name: string): DeviceRecord | undefined;
  listDevices(query: ListQuery, filter?: DeviceFilter): Page<DeviceRecord>;
  /** The distinct device types in use, sorted. */
  deviceTypes(): string[];
  /** Every device of a profile (OTA assignment to the profile). */
  devicesByProfile(profileId: string): DeviceRecord[];
  /** Write-side (call inside write()). */
  insertDevice(device: DeviceRecord): void;
  updateDevice(device: DeviceRecord): void;
  deleteDevice(id: string): void;
  /** The request id after every one the device's stored commands were given (rpc-service.ts counts on from it). */
  rpcRequestIdMark(deviceId: string): number;
  /** Write-side: raises the device's mark to `next` (never lowers it). */
  raiseRpcRequestIdMark(deviceId: string, next: number): void;

  // telemetry
  /**
   * A write of its own, grouped with the others as write() does; `done` is told once it is committed
   * and synced, or refused (group-commit.ts, buffered writes). `ttlSeconds`: the values' own TTL
   * (ThingsBoard's saveEntityTelemetryWithTTL; 0 or none: the server's), sqlite-retention.ts.
   */
  writeTelemetry<C>(deviceId: string, entries: KvEntry[], done: Written<C>, ctx: C, ttlSeconds?: number): void;
  /**
   * Runs `read` over the device's stored time series once every telemetry write of it answered before
   * the call is in them, and resolves with its result (at once when none waits; sqlite-telemetry.ts).
   */
  readTelemetry<T>(deviceId: string, read: (series: DeviceSeries) => T): Promise<T>;
  /**
   * Folds every row waiting in the telemetry ingest log into the time series, once the writes answered
   * before the call are in it (as a read across every device does first), and resolves with the log's
   * books after it. dhi bench asks before and after each measured round, so that a round's server CPU
   * holds the folds of what it wrote and nothing an earlier round left.
   */
  foldTelemetryLog(): Promise<TelemetryLogBooks>;
  /** Keys in use by the devices of a profile (null: every device), sorted, every answered write included (DeviceProfileController). */
  profileTelemetryKeys(profileId: string | null): Promise<string[]>;
  /**
   * ThingsBoard's delete of time series (write-side): values with startTs <= ts < endTs; the latest
   * value too when it is in the range and `deleteLatest`, then replaced by the newest remaining one
   * when `rewriteLatest`.
   */
  deleteTelemetry(deviceId: string, keys: string[], query: TelemetryDelete): void;
  profileAttributeKeys(profileId: string | null): string[];

  // attributes (write-side: upsertAttributes, deleteAttributes)
  /** Throws DeletedMeanwhile, having written nothing, when the device does not exist. */
  upsertAttributes(deviceId: string, scope: Scope, entries: KvEntry[]): void;
  /** Returns the keys that existed and were removed. */
  deleteAttributes(deviceId: string, scope: Scope, keys: string[]): string[];
  attributes(deviceId: string, scope: Scope, keys?: string[]): KvEntry[];
  /**
   * Every device, with those of `keys` it has saved as server attributes or as latest telemetry
   * (device-state.ts reads the fleet's state once, at start).
   */
  savedStates(keys: string[], where: 'SERVER_SCOPE' | 'TELEMETRY'): Promise<SavedState[]>;
  /** Attribute keys of one scope, sorted; or of every scope, scope by scope (CLIENT, SERVER, SHARED). */
  attributeKeys(deviceId: string, scope?: Scope): string[];

  // rpc: persistent commands only (rpc-service.ts keeps the others in memory)
  insertRpc(rpc: RpcRecord): void;
  updateRpc(id: string, patch: Partial<Pick<RpcRecord, 'status' | 'response' | 'retries'>>): void;
  deleteRpc(id: string): void;
  rpcById(id: string): RpcRecord | undefined;
  rpcByRequestId(deviceId: string, requestId: number): RpcRecord | undefined;
  /** Persistent commands still QUEUED and not expired, of every device, oldest first (restart). */
  pendingPersistentRpcs(now: number): RpcRecord[];
  listRpcs(deviceId: string, query: ListQuery, status?: RpcStatus): Page<RpcRecord>;

  // claiming
  setClaim(claim: ClaimRecord): void;
  claim(deviceId: string): ClaimRecord | undefined;
  deleteClaim(deviceId: string): void;

  // device profiles
  insertProfile(profile: ProfileRecord): void;
  updateProfile(profile: ProfileRecord): void;
  deleteProfile(id: string): void;
  profileById(id: string): ProfileRecord | undefined;
  profileByName(name: string): ProfileRecord | undefined;
  profileByProvisionKey(key: string): ProfileRecord | undefined;
  defaultProfile(): ProfileRecord;
  listProfiles(query: ListQuery, filter?: { transportType?: string }): Page<ProfileRecord>;
  /** Every profile's id and name by name; with activeOnly, those that have devices. */
  profileNames(activeOnly: boolean): { id: string; name: string }[];
  devicesUsingProfile(profileId: string): number;

  // OTA packages
  insertOta(ota: OtaRecord): void;
  updateOta(ota: OtaRecord): void;
  setOtaData(id: string, data: Buffer): void;
  deleteOta(id: string): void;
  otaById(id: string): OtaRecord | undefined;
  otaData(id: string): Buffer | undefined;
  listOta(query: ListQuery, filter?: OtaFilter): Page<OtaRecord>;
  otaInUse(id: string): boolean;

  // customers and users
  insertCustomer(customer: CustomerRecord): void;
  updateCustomer(customer: CustomerRecord): void;
  deleteCustomer(id: string): void;
  customerById(id: string): CustomerRecord | undefined;
  customerByTitle(title: string): CustomerRecord | undefined;
  listCustomers(query: ListQuery): Page<CustomerRecord>;
  insertUser(user: UserRecord): void;
  /** Write-side. A user whose credentials are disabled cannot log in or refresh a token. */
  setUserCredentialsEnabled(id: string, enabled: boolean): void;
  /** True for a user that does not exist (nothing to refuse). */
  userCredentialsEnabled(id: string): boolean;
  /** Write-side: tokens of this user or session issued before `at` (ms) are refused from now on. */
  outdateTokens(id: string, at: number): void;
  tokensOutdatedAt(id: string): number | undefined;
  /** Write-side: a user's activation token (undefined: none, the user was activated or never asked). */
  setActivation(userId: string, activation: Activation | undefined): void;
  activation(userId: string): Activation | undefined;
  userIdByActivateToken(token: string): string | undefined;
  updateUser(user: UserRecord): void;
  userById(id: string): UserRecord | undefined;
  userByEmail(email: string): UserRecord | undefined;
  deleteUser(id: string): void;
  listUsers(query: ListQuery, filter?: UserFilter): Page<UserRecord>;

  // API keys (write-side: insertApiKey, updateApiKey, deleteApiKey)
  insertApiKey(key: ApiKeyRecord): void;
  updateApiKey(key: ApiKeyRecord): void;
  deleteApiKey(id: string): void;
  apiKeyById(id: string): ApiKeyRecord | undefined;
  apiKeyByHash(valueHash: string): ApiKeyRecord | undefined;
  listApiKeys(userId: string, query: ListQuery): Page<ApiKeyRecord>;

  // device-side RPC rules (dhi extension)
  setRule(rule: RuleRecord): void;
  deleteRule(method: string): boolean;
  rule(method: string): RuleRecord | undefined;
  listRules(): RuleRecord[];

  // settings (e.g. the generated JWT secret)
  setting(key: string): string | undefined;
  setSetting(key: string, value: string): void;
}
