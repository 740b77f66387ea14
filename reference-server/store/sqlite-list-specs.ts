// The paged lists of the embedded store: which columns each one searches, the sort properties it
// accepts (ThingsBoard's names, mapped to columns) and its filters.
import type Database from 'better-sqlite3';
import { createList, registerSearch, type ListSpec } from './sqlite-lists.js';
import { apiKeyFrom, customerFrom, deviceFrom, OTA_INFO_COLUMNS, otaFrom, profileFrom, rpcFrom, userFrom } from './sqlite-rows.js';
import type { ListName, SortsOf } from './sort-properties.js';
import type { DeviceFilter, OtaFilter, RpcStatus, UserFilter } from './types.js';

type Spec<L extends ListName> = ListSpec & { sorts: SortsOf<L> };

const LIST_SPECS: { [L in ListName]: Spec<L> } = {
  devices: {
    from: 'devices',
    select: '*',
    searchIn: ['name', 'label'],
    sorts: {
      createdTime: 'created_time', name: 'name', label: 'label', type: 'type',
      deviceProfileName: '(SELECT p.name FROM device_profiles p WHERE p.id = devices.profile_id)',
      customerTitle: '(SELECT c.title FROM customers c WHERE c.id = devices.customer_id)',
    },
    defaultOrder: 'created_time DESC, name',
    filters: {
      customerId: 'customer_id = @customerId', type: 'type = @type', profileId: 'profile_id = @profileId',
      withoutFirmware: 'firmware_id IS NULL', withoutSoftware: 'software_id IS NULL',
      among: 'id IN (SELECT value FROM json_each(@among))', notAmong: 'id NOT IN (SELECT value FROM json_each(@notAmong))',
    },
  },
  profiles: {
    from: 'device_profiles',
    select: '*',
    searchIn: ['name'],
    sorts: {
      createdTime: 'created_time', name: 'name', type: 'type', transportType: 'transport_type',
      description: 'description', isDefault: 'is_default',
    },
    defaultOrder: 'created_time, name',
    filters: { transportType: 'transport_type = @transportType' },
  },
  ota: {
    from: 'ota_packages',
    // Everything but the data.
    select: OTA_INFO_COLUMNS,
    searchIn: ['title'],
    sorts: {
      createdTime: 'created_time', type: 'type', title: 'title', version: 'version', tag: 'tag', url: 'url',
      fileName: 'file_name', contentType: 'content_type', checksumAlgorithm: 'checksum_algorithm',
      checksum: 'checksum', dataSize: 'data_size',
    },
    defaultOrder: 'created_time DESC',
    filters: {
      profileId: 'profile_id = @profileId',
      type: 'type = @type',
      hasData: '(data_size IS NOT NULL OR url IS NOT NULL)',
    },
  },
  rpcs: {
    from: 'rpc',
    select: '*',
    where: 'device_id = @deviceId',
    searchIn: ['method'],
    sorts: { createdTime: 'created_time', expirationTime: 'expiration_time', status: 'status' },
    defaultOrder: 'created_time DESC, request_id DESC',
    filters: { status: 'status = @status' },
  },
  customers: {
    from: 'customers',
    select: '*',
    searchIn: ['title'],
    sorts: { createdTime: 'created_time', title: 'title', email: 'email' },
    defaultOrder: 'created_time, title',
  },
  users: {
    from: 'users',
    select: '*',
    searchIn: ['email', 'first_name', 'last_name'],
    sorts: { createdTime: 'created_time', email: 'email', firstName: 'first_name', lastName: 'last_name' },
    defaultOrder: 'created_time, email',
    filters: { customerId: 'customer_id = @customerId', authority: 'authority = @authority' },
  },
  apiKeys: {
    from: 'api_keys',
    select: '*',
    where: 'user_id = @userId',
    searchIn: ['description'],
    sorts: { createdTime: 'created_time', expirationTime: 'expiration_time', description: 'description', enabled: 'enabled' },
    defaultOrder: 'created_time, id',
  },
};

export function createLists(db: Database.Database) {
  registerSearch(db);
  return {
    devices: createList<ReturnType<typeof deviceFrom>, DeviceFilter>(db, LIST_SPECS.devices, deviceFrom),
    profiles: createList<ReturnType<typeof profileFrom>, { transportType?: string }>(db, LIST_SPECS.profiles, profileFrom),
    ota: createList<ReturnType<typeof otaFrom>, OtaFilter>(db, LIST_SPECS.ota, otaFrom),
    rpcs: createList<ReturnType<typeof rpcFrom>, { deviceId: string; status?: RpcStatus }>(db, LIST_SPECS.rpcs, rpcFrom),
    customers: createList<ReturnType<typeof customerFrom>, object>(db, LIST_SPECS.customers, customerFrom),
    users: createList<ReturnType<typeof userFrom>, UserFilter>(db, LIST_SPECS.users, userFrom),
    apiKeys: createList<ReturnType<typeof apiKeyFrom>, { userId: string }>(db, LIST_SPECS.apiKeys, apiKeyFrom),
  };
}
