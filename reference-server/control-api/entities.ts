// ThingsBoard's entity shapes shared by the control API modules: entity ids, pages, devices.
import { ApiError, ErrorCode, badRequest, notFound } from '../errors.js';
import { SORT_PROPERTIES, type ListName } from '../store/sort-properties.js';
import type { DeviceRecord, ListQuery, Page, Store } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

export type EntityType = 'DEVICE' | 'DEVICE_PROFILE' | 'CUSTOMER' | 'USER' | 'OTA_PACKAGE' | 'RPC' | 'TENANT' | 'API_KEY';
export type EntityId = Schema<'EntityId'>;
type EntityIdInput = Schema<'EntityIdInput'>;

/** ThingsBoard's "no entity" id: a device without a customer has customerId NULL_UUID. */
export const NULL_UUID = '13814000-1dd2-11b2-8080-808080808080';

/** The id of dhi's one tenant (the same on every dhi: there is no other tenant to tell it from). */
export const TENANT_ID = '5e0d1a7c-3b4f-4c21-9a8e-2f6d0b7c9e41';

export const entityId = (entityType: EntityType, id: string): EntityId => ({ entityType, id });
export const optionalEntityId = (entityType: EntityType, id: string | null): EntityId | null =>
  id ? entityId(entityType, id) : null;
export const TENANT = entityId('TENANT', TENANT_ID);

/**
 * ThingsBoard's optimistic lock (JpaAbstractDao): a save that carries a version other than the
 * stored one is 409; without one it overwrites. The saved record has the next version.
 */
export function nextVersion(what: string, stored: { version: number } | undefined, given: number | null | undefined): number {
  if (!stored) return 1;
  if (given != null && given !== stored.version) {
    throw new ApiError(409, ErrorCode.VERSION_CONFLICT, `${what} was already changed by someone else`);
  }
  return stored.version + 1;
}

/** An optional field of a save: the given value (null clears it), else the stored one. */
export const kept = <T>(given: T | undefined, stored: T | null | undefined): T | null =>
  given === undefined ? (stored ?? null) : given;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A comma-separated list of ids as Spring binds a Set<UUID>: distinct, each a uuid (400 otherwise). */
export function uuidList(ids: string): string[] {
  const list = ids.split(',').map((id) => id.trim()).filter((id) => id !== '');
  const bad = list.find((id) => !UUID.test(id));
  if (bad) throw badRequest(`Invalid UUID string: ${bad}`);
  return [...new Set(list)];
}

/** The uuid of an optional reference from a request body; null (or NULL_UUID) means none. */
export function refId(ref: EntityIdInput | null | undefined): string | null {
  return ref && ref.id !== NULL_UUID ? ref.id : null;
}

/**
 * ThingsBoard's PageLink from the query: pageSize is required on every list, page defaults to 0
 * (the schema's default), and sortProperty must be one the list has (400 otherwise).
 */
export function pageQuery(query: Partial<ListQuery>, list: ListName): ListQuery {
  const { page = 0, pageSize, textSearch, sortProperty, sortOrder } = query;
  if (pageSize === undefined) throw badRequest("Required request parameter 'pageSize' is not present");
  const sorts: readonly string[] = SORT_PROPERTIES[list];
  if (sortProperty !== undefined && sortProperty !== '' && !sorts.includes(sortProperty)) {
    throw badRequest(`Invalid sortProperty '${sortProperty}': one of ${sorts.join(', ')}`);
  }
  return { page, pageSize, textSearch, sortProperty: sortProperty || undefined, sortOrder };
}

/** ThingsBoard's PageData: data, totalPages, totalElements, hasNext. */
export function pageData<T, R>(result: Page<T>, { page, pageSize }: ListQuery, map: (item: T) => R) {
  return {
    data: result.data.map(map),
    totalPages: Math.ceil(result.totalElements / pageSize),
    totalElements: result.totalElements,
    hasNext: (page + 1) * pageSize < result.totalElements,
  };
}

/** A page as JSON text, from items already printed as JSON text. */
export function pageText<T>(result: Page<T>, query: ListQuery, print: (item: T) => string): string {
  const { data, ...counts } = pageData(result, query, print);
  return `{"data":[${data.join(',')}],${JSON.stringify(counts).slice(1)}`;
}

/** The record, or 404 worded as ThingsBoard words it: `<What> with id [<id>] is not found`. */
export function orNotFound<T>(record: T | undefined, what: string, id: string): T {
  if (record === undefined) throw notFound(`${what} with id [${id}] is not found`);
  return record;
}

export const deviceOr404 = (store: Store, deviceId: string): DeviceRecord =>
  orNotFound(store.deviceById(deviceId), 'Device', deviceId);

export function deviceByNameOr404(store: Store, name: string): DeviceRecord {
  const device = store.deviceByName(name);
  if (!device) throw notFound(`Device with name [${name}] is not found`);
  return device;
}

/** AccessValidator's text: the 404 of the RPC and telemetry controllers is this bare text, not the error JSON. */
export const DEVICE_NOT_FOUND = "Device with requested id wasn't found!";

/** The device for the RPC and telemetry controllers, which check access through AccessValidator. */
export function validatedDevice(store: Store, deviceId: string): DeviceRecord {
  const device = store.deviceById(deviceId);
  if (!device) throw new ApiError(404, ErrorCode.ITEM_NOT_FOUND, DEVICE_NOT_FOUND, DEVICE_NOT_FOUND);
  return device;
}

/** DeviceData when a device has none of its own (ThingsBoard's default for the DEFAULT transport). */
export const defaultDeviceData = (transportType = 'DEFAULT') => ({ configuration: { type: 'DEFAULT' }, transportConfiguration: { type: transportType } });

export function deviceJson(d: DeviceRecord): Schema<'Device'> {
  return {
    id: entityId('DEVICE', d.id),
    createdTime: d.createdTime,
    tenantId: TENANT,
    customerId: entityId('CUSTOMER', d.customerId ?? NULL_UUID),
    name: d.name,
    type: d.type,
    label: d.label,
    deviceProfileId: entityId('DEVICE_PROFILE', d.profileId),
    // A parsed body kept as sent: the contract's shape held when it was saved.
    deviceData: (d.deviceData ?? defaultDeviceData()) as Schema<'DeviceData'>,
    firmwareId: optionalEntityId('OTA_PACKAGE', d.firmwareId),
    softwareId: optionalEntityId('OTA_PACKAGE', d.softwareId),
    externalId: optionalEntityId('DEVICE', d.externalId),
    version: d.version,
    additionalInfo: d.additionalInfo,
  };
}

/** ThingsBoard's DeviceCredentials. */
export function credentialsJson(d: DeviceRecord): Schema<'DeviceCredentials'> {
  return {
    id: { id: d.credentialsUuid },
    createdTime: d.createdTime,
    deviceId: entityId('DEVICE', d.id),
    credentialsType: d.credentialsType,
    credentialsId: d.token,
    credentialsValue: d.credentialsValue,
    version: d.credentialsVersion,
  };
}
