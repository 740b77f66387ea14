// ThingsBoard's entity shapes shared by the control API modules: entity ids, pages, devices.
import { badRequest, notFound } from '../errors.js';
import type { DeviceRecord, Page, Store } from '../store/types.js';

export type EntityType = 'DEVICE' | 'DEVICE_PROFILE' | 'CUSTOMER' | 'USER' | 'OTA_PACKAGE' | 'RPC' | 'TENANT';
export interface EntityId {
  entityType: string;
  id: string;
}

/** ThingsBoard's "no entity" id: a device without a customer has customerId NULL_UUID. */
export const NULL_UUID = '13814000-1dd2-11b2-8080-808080808080';

export const entityId = (entityType: EntityType, id: string): EntityId => ({ entityType, id });
export const optionalEntityId = (entityType: EntityType, id: string | null): EntityId | null =>
  id ? entityId(entityType, id) : null;

/** The uuid of an optional reference from a request body; null (or NULL_UUID) means none. */
export function refId(ref: EntityId | null | undefined): string | null {
  return ref && ref.id !== NULL_UUID ? ref.id : null;
}

export interface PageQuery {
  page: number;
  pageSize: number;
}

/** ThingsBoard requires pageSize on every list; page defaults to 0 (the schema's default). */
export function pageQuery(query: unknown): PageQuery {
  const { page = 0, pageSize } = query as { page?: number; pageSize?: number };
  if (pageSize === undefined) throw badRequest("Required request parameter 'pageSize' is not present");
  return { page, pageSize };
}

/** ThingsBoard's PageData: data, totalPages, totalElements, hasNext. */
export function pageData<T, R>(result: Page<T>, { page, pageSize }: PageQuery, map: (item: T) => R) {
  return {
    data: result.data.map(map),
    totalPages: Math.ceil(result.totalElements / pageSize),
    totalElements: result.totalElements,
    hasNext: (page + 1) * pageSize < result.totalElements,
  };
}

/** The record, or 404 worded as ThingsBoard words it: `<What> with id [<id>] is not found`. */
export function orNotFound<T>(record: T | undefined, what: string, id: string): T {
  if (record === undefined) throw notFound(`${what} with id [${id}] is not found`);
  return record;
}

export const deviceOr404 = (store: Store, deviceId: string): DeviceRecord =>
  orNotFound(store.deviceById(deviceId), 'Device', deviceId);

export function deviceJson(d: DeviceRecord) {
  return {
    id: entityId('DEVICE', d.id),
    createdTime: d.createdTime,
    customerId: entityId('CUSTOMER', d.customerId ?? NULL_UUID),
    name: d.name,
    type: d.type,
    label: d.label,
    deviceProfileId: entityId('DEVICE_PROFILE', d.profileId),
    firmwareId: optionalEntityId('OTA_PACKAGE', d.firmwareId),
    softwareId: optionalEntityId('OTA_PACKAGE', d.softwareId),
    additionalInfo: d.additionalInfo,
  };
}
