// The entity of a TelemetryController path (/api/plugins/telemetry/{entityType}/{entityId}/...), as
// ThingsBoard resolves it: EntityIdFactory reads the type (EntityType.valueOf) and then the id
// (UUID.fromString), each a 400 with Java's message; AccessValidator then finds the entity. Only
// devices have telemetry and attributes in dhi. For the other types a tenant admin gets what
// ThingsBoard answers when the entity does not exist (404 with AccessValidator's bare text; dhi has
// no assets, edges, entity views, rule chains, resources or API usage states), its 403s, and "Not Implemented!" for the types AccessValidator has no case for (500 there,
// 501 here). dhi's tenant, or a customer, user, device profile, OTA package or RPC that exists is 501 naming what
// dhi leaves out: they have no telemetry or attributes in dhi.
import { ApiError, ErrorCode, badRequest, forbidden } from '../errors.js';
import { DEVICE_NOT_FOUND, TENANT_ID } from './entities.js';
import type { DeviceRecord, Store } from '../store/types.js';

/** ThingsBoard 4.4's EntityType values. */
export const ENTITY_TYPES = new Set([
  'TENANT', 'CUSTOMER', 'USER', 'DASHBOARD', 'ASSET', 'DEVICE', 'ALARM', 'RULE_CHAIN', 'RULE_NODE', 'ENTITY_VIEW',
  'WIDGETS_BUNDLE', 'WIDGET_TYPE', 'TENANT_PROFILE', 'DEVICE_PROFILE', 'ASSET_PROFILE', 'API_USAGE_STATE', 'TB_RESOURCE',
  'OTA_PACKAGE', 'EDGE', 'RPC', 'QUEUE', 'NOTIFICATION_TARGET', 'NOTIFICATION_TEMPLATE', 'NOTIFICATION_REQUEST',
  'NOTIFICATION', 'NOTIFICATION_RULE', 'QUEUE_STATS', 'DOMAIN', 'MOBILE_APP', 'MOBILE_APP_BUNDLE', 'CALCULATED_FIELD',
  'JOB', 'ADMIN_SETTINGS', 'AI_MODEL', 'API_KEY',
]);

/** AccessValidator's "not found" texts of the types dhi has none of (every id is unknown). */
const ABSENT: Record<string, string> = {
  ASSET: 'Asset with requested id wasn\'t found!',
  ASSET_PROFILE: 'Asset profile with requested id wasn\'t found!',
  RULE_CHAIN: 'Rule chain with requested id wasn\'t found!',
  ENTITY_VIEW: 'Entity-view with requested id wasn\'t found!',
  EDGE: 'Edge with requested id wasn\'t found!',
  API_USAGE_STATE: 'Api Usage State with requested id wasn\'t found!',
  TB_RESOURCE: 'Resource with requested id wasn\'t found!',
};

/** The types dhi has, without telemetry: their lookup and AccessValidator's text when absent. */
const WITHOUT_TELEMETRY: Record<string, { exists: (store: Store, id: string) => boolean; notFound: string; what: string }> = {
  TENANT: { exists: (_s, id) => id === TENANT_ID, notFound: 'Tenant with requested id wasn\'t found!', what: 'tenants' },
  CUSTOMER: { exists: (s, id) => s.customerById(id) !== undefined, notFound: 'Customer with requested id wasn\'t found!', what: 'customers' },
  USER: { exists: (s, id) => s.userById(id) !== undefined, notFound: 'User with requested id wasn\'t found!', what: 'users' },
  DEVICE_PROFILE: { exists: (s, id) => s.profileById(id) !== undefined, notFound: 'Device profile with requested id wasn\'t found!', what: 'device profiles' },
  OTA_PACKAGE: { exists: (s, id) => s.otaById(id) !== undefined, notFound: 'OtaPackage with requested id wasn\'t found!', what: 'OTA packages' },
  RPC: { exists: (s, id) => s.rpcById(id) !== undefined, notFound: 'Rpc with requested id wasn\'t found!', what: 'RPC requests' },
};

/** AccessValidator's Operation, which only matters to API_USAGE_STATE (read-only telemetry). */
export type TelemetryOperation = 'READ_TELEMETRY' | 'READ_ATTRIBUTES' | 'WRITE_ATTRIBUTES' | 'WRITE_TELEMETRY';

export interface EntityRef {
  entityType: string;
  id: string;
}

/** The AccessValidator 404: its bare text, not the error JSON. */
export const entityNotFound = (text: string) => new ApiError(404, ErrorCode.ITEM_NOT_FOUND, text, text);

/** Long.parseLong(part, 16) of a UUID part, or the message of the NumberFormatException Java throws. */
function parseHexLong(part: string): bigint | string {
  if (part === '') return '';
  const error = (i: number) => `Error at index ${i} in: "${part}"`;
  let i = 0;
  const negative = part[0] === '-';
  if (negative || part[0] === '+') i = 1;
  else if (part[0] < '0') return error(0);
  if (i >= part.length) return error(i);
  let value = 0n;
  for (; i < part.length; i++) {
    const digit = Number.parseInt(part[i], 16);
    if (Number.isNaN(digit)) return error(i);
    value = value * 16n + BigInt(digit);
    if (value > (negative ? 2n ** 63n : 2n ** 63n - 1n)) return error(i);
  }
  return negative ? -value : value;
}

const CANONICAL = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** java.util.UUID.fromString, giving the canonical lower-case form; 400 with Java's message otherwise. */
export function javaUuid(text: string): string {
  if (CANONICAL.test(text)) return text.toLowerCase();
  if (text.length > 36) throw badRequest('UUID string too large');
  const parts = text.split('-');
  if (parts.length !== 5) throw badRequest(`Invalid UUID string: ${text}`);
  const values: bigint[] = [];
  for (const part of parts) {
    const value = parseHexLong(part);
    if (typeof value === 'string') throw badRequest(value);
    values.push(value);
  }
  const [a, b, c, d, e] = values;
  const msb = (BigInt.asUintN(32, a) << 32n) | (BigInt.asUintN(16, b) << 16n) | BigInt.asUintN(16, c);
  const lsb = (BigInt.asUintN(16, d) << 48n) | BigInt.asUintN(48, e);
  const hex = msb.toString(16).padStart(16, '0') + lsb.toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** EntityIdFactory.getByTypeAndId. */
export function entityRef(params: unknown): EntityRef {
  const { entityType, entityId, deviceId } = params as { entityType?: string; entityId?: string; deviceId?: string };
  // The forms without an entity type (/api/plugins/telemetry/{deviceId}/{scope}) name a device.
  if (entityType === undefined) return { entityType: 'DEVICE', id: javaUuid(deviceId ?? '') };
  if (!ENTITY_TYPES.has(entityType)) throw badRequest(`No enum constant org.thingsboard.server.common.data.EntityType.${entityType}`);
  return { entityType, id: javaUuid(entityId ?? '') };
}

/** AccessValidator.validate for a tenant admin: the device, or ThingsBoard's refusal for the entity. */
export function telemetryDevice(store: Store, ref: EntityRef, operation: TelemetryOperation): DeviceRecord {
  const { entityType, id } = ref;
  if (entityType === 'DEVICE') {
    const device = store.deviceById(id);
    if (!device) throw entityNotFound(DEVICE_NOT_FOUND);
    return device;
  }
  if (entityType === 'TENANT_PROFILE') throw forbidden('Only system administrator is allowed to perform this operation!');
  if (entityType === 'API_USAGE_STATE' && operation !== 'READ_TELEMETRY') throw forbidden('Allowed only READ_TELEMETRY operation!');
  if (ABSENT[entityType]) throw entityNotFound(ABSENT[entityType]);
  const kind = WITHOUT_TELEMETRY[entityType];
  if (!kind) throw new ApiError(501, ErrorCode.GENERAL, 'Not Implemented!');
  if (!kind.exists(store, id)) throw entityNotFound(kind.notFound);
  throw new ApiError(501, ErrorCode.GENERAL, `dhi does not model telemetry and attributes of ${kind.what}: only devices have them`);
}
