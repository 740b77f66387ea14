// Rows of the embedded store <-> records: one mapper per table, shared by the store and its lists.
import type Database from 'better-sqlite3';
import type { ApiKeyRecord, CustomerRecord, DeviceRecord, JsonObject, JsonValue, OtaRecord, ProfileRecord, RpcRecord, RpcStatus, UserRecord } from './types.js';

export type Row = Record<string, unknown>;

/** A JSON column: its text, or NULL (JSON null included). Any JSON value: additionalInfo may be `0` or `""`. */
const jsonFrom = <T extends JsonValue = JsonObject>(cell: unknown): T | null => (typeof cell === 'string' ? JSON.parse(cell) as T : null);
const jsonCell = (value: JsonValue | undefined): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** A lookup of one record by the statement's parameters. */
export const one = <T>(stmt: Database.Statement, from: (row: Row) => T) => (...args: unknown[]): T | undefined => {
  const row = stmt.get(...args) as Row | undefined;
  return row && from(row);
};
/** INSERT of a record's cells, by their column names (one statement, prepared once). */
export function insertOf<T>(db: Database.Database, table: string, cells: (record: T) => Row): Database.Statement {
  const columns = Object.keys(cells({} as T));
  return db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
}
/** UPDATE of every cell of a record but its id. */
export function updateOf<T>(db: Database.Database, table: string, cells: (record: T) => Row): Database.Statement {
  const columns = Object.keys(cells({} as T)).filter((c) => c !== 'id');
  return db.prepare(`UPDATE ${table} SET ${columns.map((c) => `${c}=@${c}`).join(', ')} WHERE id=@id`);
}
/** Every record the statement selects. */
export const many = <T>(stmt: Database.Statement, from: (row: Row) => T) => (...args: unknown[]): T[] =>
  (stmt.all(...args) as Row[]).map(from);

export const deviceFrom = (r: Row): DeviceRecord => ({
  id: r.id as string, name: r.name as string, type: r.type as string, label: r.label as string | null,
  token: r.token as string, credentialsType: r.credentials_type as DeviceRecord['credentialsType'],
  credentialsValue: r.credentials_value as string | null, credentialsUuid: r.credentials_uuid as string,
  credentialsVersion: r.credentials_version as number, profileId: r.profile_id as string, customerId: r.customer_id as string | null,
  firmwareId: r.firmware_id as string | null, softwareId: r.software_id as string | null,
  additionalInfo: jsonFrom<JsonValue>(r.additional_info), deviceData: jsonFrom(r.device_data),
  externalId: r.external_id as string | null, version: r.version as number, createdTime: r.created_time as number,
});
export const deviceCells = (d: DeviceRecord) => ({
  id: d.id, name: d.name, type: d.type, label: d.label, token: d.token, credentials_type: d.credentialsType,
  credentials_value: d.credentialsValue, credentials_uuid: d.credentialsUuid, credentials_version: d.credentialsVersion,
  profile_id: d.profileId,
  customer_id: d.customerId, firmware_id: d.firmwareId, software_id: d.softwareId,
  additional_info: jsonCell(d.additionalInfo), device_data: jsonCell(d.deviceData), external_id: d.externalId,
  version: d.version, created_time: d.createdTime,
});
export const profileFrom = (r: Row): ProfileRecord => ({
  id: r.id as string, name: r.name as string, type: r.type as string, transportType: r.transport_type as string,
  description: r.description as string | null, isDefault: r.is_default === 1,
  provisionType: r.provision_type as ProfileRecord['provisionType'], provisionKey: r.provision_key as string | null,
  provisionSecret: r.provision_secret as string | null, firmwareId: r.firmware_id as string | null,
  softwareId: r.software_id as string | null, image: r.image as string | null,
  defaultQueueName: r.default_queue_name as string | null, configuration: jsonFrom(r.configuration),
  transportConfiguration: jsonFrom(r.transport_configuration), externalId: r.external_id as string | null,
  version: r.version as number, createdTime: r.created_time as number,
});
export const profileCells = (p: ProfileRecord) => ({
  id: p.id, name: p.name, type: p.type, transport_type: p.transportType, description: p.description,
  is_default: p.isDefault ? 1 : 0, provision_type: p.provisionType, provision_key: p.provisionKey,
  provision_secret: p.provisionSecret, firmware_id: p.firmwareId, software_id: p.softwareId, image: p.image,
  default_queue_name: p.defaultQueueName, configuration: jsonCell(p.configuration),
  transport_configuration: jsonCell(p.transportConfiguration), external_id: p.externalId, version: p.version,
  created_time: p.createdTime,
});
export const rpcFrom = (r: Row): RpcRecord => ({
  id: r.id as string, deviceId: r.device_id as string, requestId: r.request_id as number, method: r.method as string,
  params: r.params as string, oneway: r.oneway === 1, persistent: r.persistent === 1,
  status: r.status as RpcStatus, expirationTime: r.expiration_time as number, createdTime: r.created_time as number,
  response: r.response as string | null, retries: r.retries as number,
  additionalInfo: (r.additional_info as string | null) ?? null,
});
export const otaFrom = (r: Row): OtaRecord => ({
  id: r.id as string, type: r.type as OtaRecord['type'], title: r.title as string, version: r.version as string,
  tag: r.tag as string | null, url: r.url as string | null, profileId: r.profile_id as string | null,
  fileName: r.file_name as string | null, contentType: r.content_type as string | null,
  checksumAlgorithm: r.checksum_algorithm as OtaRecord['checksumAlgorithm'], checksum: r.checksum as string | null,
  dataSize: r.data_size as number | null, additionalInfo: jsonFrom<JsonValue>(r.additional_info),
  externalId: r.external_id as string | null, createdTime: r.created_time as number,
});
export const otaCells = (o: OtaRecord) => ({
  id: o.id, type: o.type, title: o.title, version: o.version, tag: o.tag, url: o.url, profile_id: o.profileId,
  file_name: o.fileName, content_type: o.contentType, checksum_algorithm: o.checksumAlgorithm,
  checksum: o.checksum, data_size: o.dataSize, additional_info: jsonCell(o.additionalInfo), external_id: o.externalId,
  created_time: o.createdTime,
});
/** The columns of a package's info: everything but its data. */
export const OTA_INFO_COLUMNS = Object.keys(otaCells({} as OtaRecord)).join(', ');
export const customerFrom = (r: Row): CustomerRecord => ({
  id: r.id as string, title: r.title as string, country: r.country as string | null, state: r.state as string | null,
  city: r.city as string | null, address: r.address as string | null, address2: r.address2 as string | null,
  zip: r.zip as string | null, phone: r.phone as string | null, email: r.email as string | null,
  additionalInfo: jsonFrom<JsonValue>(r.additional_info), externalId: r.external_id as string | null, version: r.version as number,
  createdTime: r.created_time as number,
});
export const customerCells = (c: CustomerRecord) => ({
  id: c.id, title: c.title, country: c.country, state: c.state, city: c.city, address: c.address, address2: c.address2,
  zip: c.zip, phone: c.phone, email: c.email, additional_info: jsonCell(c.additionalInfo), external_id: c.externalId,
  version: c.version, created_time: c.createdTime,
});
export const userFrom = (r: Row): UserRecord => ({
  id: r.id as string, email: r.email as string, authority: r.authority as UserRecord['authority'],
  customerId: r.customer_id as string | null, firstName: r.first_name as string | null,
  lastName: r.last_name as string | null, phone: r.phone as string | null, additionalInfo: jsonFrom<JsonValue>(r.additional_info),
  version: r.version as number, passwordHash: r.password_hash as string | null, createdTime: r.created_time as number,
});
export const userCells = (u: UserRecord) => ({
  id: u.id, email: u.email, authority: u.authority, customer_id: u.customerId, first_name: u.firstName,
  last_name: u.lastName, phone: u.phone, additional_info: jsonCell(u.additionalInfo), version: u.version,
  password_hash: u.passwordHash, created_time: u.createdTime,
});
export const apiKeyFrom = (r: Row): ApiKeyRecord => ({
  id: r.id as string, userId: r.user_id as string, valueHash: r.value_hash as string, description: r.description as string,
  enabled: r.enabled === 1, expirationTime: r.expiration_time as number, createdTime: r.created_time as number,
});
export const apiKeyCells = (k: ApiKeyRecord) => ({
  id: k.id, user_id: k.userId, value_hash: k.valueHash, description: k.description, enabled: k.enabled ? 1 : 0,
  expiration_time: k.expirationTime, created_time: k.createdTime,
});
