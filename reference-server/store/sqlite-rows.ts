// Rows of the embedded store <-> records: one mapper per table, shared by the store and its lists.
import type Database from 'better-sqlite3';
import type { CustomerRecord, DeviceRecord, OtaRecord, ProfileRecord, RpcRecord, RpcStatus, UserRecord } from './types.js';

export type Row = Record<string, unknown>;

/** A lookup of one record by the statement's parameters. */
export const one = <T>(stmt: Database.Statement, from: (row: Row) => T) => (...args: unknown[]): T | undefined => {
  const row = stmt.get(...args) as Row | undefined;
  return row && from(row);
};
/** Every record the statement selects. */
export const many = <T>(stmt: Database.Statement, from: (row: Row) => T) => (...args: unknown[]): T[] =>
  (stmt.all(...args) as Row[]).map(from);

export const deviceFrom = (r: Row): DeviceRecord => ({
  id: r.id as string, name: r.name as string, type: r.type as string, label: r.label as string | null,
  token: r.token as string, credentialsType: r.credentials_type as DeviceRecord['credentialsType'],
  credentialsValue: r.credentials_value as string | null, profileId: r.profile_id as string, customerId: r.customer_id as string | null,
  firmwareId: r.firmware_id as string | null, softwareId: r.software_id as string | null,
  additionalInfo: r.additional_info ? JSON.parse(r.additional_info as string) : null,
  createdTime: r.created_time as number,
});
export const deviceCells = (d: DeviceRecord) => ({
  id: d.id, name: d.name, type: d.type, label: d.label, token: d.token, credentials_type: d.credentialsType,
  credentials_value: d.credentialsValue, profile_id: d.profileId,
  customer_id: d.customerId, firmware_id: d.firmwareId, software_id: d.softwareId,
  additional_info: d.additionalInfo ? JSON.stringify(d.additionalInfo) : null, created_time: d.createdTime,
});
export const profileFrom = (r: Row): ProfileRecord => ({
  id: r.id as string, name: r.name as string, type: r.type as string, transportType: r.transport_type as string,
  description: r.description as string | null, isDefault: r.is_default === 1,
  provisionType: r.provision_type as ProfileRecord['provisionType'], provisionKey: r.provision_key as string | null,
  provisionSecret: r.provision_secret as string | null, firmwareId: r.firmware_id as string | null,
  softwareId: r.software_id as string | null, createdTime: r.created_time as number,
});
export const profileCells = (p: ProfileRecord) => ({
  id: p.id, name: p.name, type: p.type, transport_type: p.transportType, description: p.description,
  is_default: p.isDefault ? 1 : 0, provision_type: p.provisionType, provision_key: p.provisionKey,
  provision_secret: p.provisionSecret, firmware_id: p.firmwareId, software_id: p.softwareId, created_time: p.createdTime,
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
  dataSize: r.data_size as number | null, createdTime: r.created_time as number,
});
export const otaCells = (o: OtaRecord) => ({
  id: o.id, type: o.type, title: o.title, version: o.version, tag: o.tag, url: o.url, profile_id: o.profileId,
  file_name: o.fileName, content_type: o.contentType, checksum_algorithm: o.checksumAlgorithm,
  checksum: o.checksum, data_size: o.dataSize, created_time: o.createdTime,
});
export const customerFrom = (r: Row): CustomerRecord => ({
  id: r.id as string, title: r.title as string, email: r.email as string | null, createdTime: r.created_time as number,
});
export const userFrom = (r: Row): UserRecord => ({
  id: r.id as string, email: r.email as string, authority: r.authority as UserRecord['authority'],
  customerId: r.customer_id as string | null, firstName: r.first_name as string | null,
  lastName: r.last_name as string | null, passwordHash: r.password_hash as string | null,
  createdTime: r.created_time as number,
});
