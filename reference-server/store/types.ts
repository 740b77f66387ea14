// The storage port. The embedded default is SQLite (sqlite.ts); a server database can implement
// the same interface later. Reads are synchronous; every write goes through write(), which groups
// the writes of one event-loop turn into one committed transaction.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

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

export interface DeviceRecord {
  id: string;
  name: string;
  type: string;
  label: string | null;
  token: string;
  profileId: string;
  customerId: string | null;
  firmwareId: string | null;
  softwareId: string | null;
  additionalInfo: JsonObject | null;
  createdTime: number;
}

export type ProvisionType = 'DISABLED' | 'ALLOW_CREATE_NEW_DEVICES' | 'CHECK_PRE_PROVISIONED_DEVICES';

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
  createdTime: number;
}

export type RpcStatus = 'QUEUED' | 'SENT' | 'DELIVERED' | 'SUCCESSFUL' | 'TIMEOUT' | 'EXPIRED' | 'FAILED' | 'DELETED';

export interface RpcRecord {
  id: string;
  deviceId: string;
  /** The per-device integer id the device sees. */
  requestId: number;
  method: string;
  params: JsonValue;
  oneway: boolean;
  persistent: boolean;
  status: RpcStatus;
  expirationTime: number;
  createdTime: number;
  /** The device's reply as sent (raw text); null until answered. */
  response: string | null;
  retries: number;
  additionalInfo: JsonValue;
}

export interface ClaimRecord {
  deviceId: string;
  secretKey: string;
  expiresAt: number;
}

export type OtaType = 'FIRMWARE' | 'SOFTWARE';

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
  checksumAlgorithm: string | null;
  checksum: string | null;
  dataSize: number | null;
  createdTime: number;
}

export interface CustomerRecord {
  id: string;
  title: string;
  email: string | null;
  createdTime: number;
}

export type Authority = 'TENANT_ADMIN' | 'CUSTOMER_USER';

export interface UserRecord {
  id: string;
  email: string;
  authority: Authority;
  customerId: string | null;
  firstName: string | null;
  lastName: string | null;
  /** scrypt hash `salt:hash` (hex); null for users that only get tokens from an admin. */
  passwordHash: string | null;
  createdTime: number;
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

export interface TelemetryQuery {
  keys: string[];
  startTs: number;
  endTs: number;
  limit: number;
  order: 'ASC' | 'DESC';
}

export interface Store {
  /**
   * Run fn(arg) inside the group-committed transaction; resolves once that transaction has
   * committed. Hot paths pass a module-level fn and its argument instead of a fresh closure.
   */
  write<T, A = undefined>(fn: (arg: A) => T, arg?: A): Promise<T>;
  close(): Promise<void>;

  // devices
  deviceByToken(token: string): DeviceRecord | undefined;
  deviceById(id: string): DeviceRecord | undefined;
  deviceByName(name: string): DeviceRecord | undefined;
  listDevices(page: number, pageSize: number, textSearch?: string): Page<DeviceRecord>;
  /** Every device of a profile (OTA assignment to the profile). */
  devicesByProfile(profileId: string): DeviceRecord[];
  /** Write-side (call inside write()). */
  insertDevice(device: DeviceRecord): void;
  updateDevice(device: DeviceRecord): void;
  deleteDevice(id: string): void;
  /** Next per-device RPC id; persisted with the counter, so ids never repeat (write-side). */
  nextRpcRequestId(deviceId: string): number;

  // telemetry (write-side: insertTelemetry)
  insertTelemetry(deviceId: string, entries: KvEntry[]): void;
  latestTelemetry(deviceId: string, keys?: string[]): KvEntry[];
  telemetryRange(deviceId: string, query: TelemetryQuery): KvEntry[];
  telemetryCount(deviceId: string): number;

  // attributes (write-side: upsertAttributes, deleteAttributes)
  upsertAttributes(deviceId: string, scope: Scope, entries: KvEntry[]): void;
  /** Returns the keys that existed and were removed. */
  deleteAttributes(deviceId: string, scope: Scope, keys: string[]): string[];
  attributes(deviceId: string, scope: Scope, keys?: string[]): KvEntry[];

  // rpc
  insertRpc(rpc: RpcRecord): void;
  updateRpc(id: string, patch: Partial<Pick<RpcRecord, 'status' | 'response' | 'retries'>>): void;
  deleteRpc(id: string): void;
  rpcById(id: string): RpcRecord | undefined;
  rpcByRequestId(deviceId: string, requestId: number): RpcRecord | undefined;
  /** Persistent commands still QUEUED and not expired, of every device, oldest first (restart). */
  pendingPersistentRpcs(now: number): RpcRecord[];
  listRpcs(deviceId: string, page: number, pageSize: number, status?: RpcStatus): Page<RpcRecord>;

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
  listProfiles(page: number, pageSize: number): Page<ProfileRecord>;
  devicesUsingProfile(profileId: string): number;

  // OTA packages
  insertOta(ota: OtaRecord): void;
  updateOta(ota: OtaRecord): void;
  setOtaData(id: string, data: Buffer): void;
  deleteOta(id: string): void;
  otaById(id: string): OtaRecord | undefined;
  otaData(id: string): Buffer | undefined;
  listOta(page: number, pageSize: number): Page<OtaRecord>;
  otaInUse(id: string): boolean;

  // customers and users
  insertCustomer(customer: CustomerRecord): void;
  updateCustomer(customer: CustomerRecord): void;
  deleteCustomer(id: string): void;
  customerById(id: string): CustomerRecord | undefined;
  customerByTitle(title: string): CustomerRecord | undefined;
  insertUser(user: UserRecord): void;
  updateUser(user: UserRecord): void;
  userById(id: string): UserRecord | undefined;
  userByEmail(email: string): UserRecord | undefined;

  // device-side RPC rules (dhi extension)
  setRule(rule: RuleRecord): void;
  deleteRule(method: string): boolean;
  rule(method: string): RuleRecord | undefined;
  listRules(): RuleRecord[];

  // settings (e.g. the generated JWT secret)
  setting(key: string): string | undefined;
  setSetting(key: string, value: string): void;
}
