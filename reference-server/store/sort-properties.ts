// The sortProperty values each paged list accepts (ThingsBoard's property names). Part of the
// storage port: the control API refuses any other with 400, a store maps them to its columns.
export const SORT_PROPERTIES = {
  devices: ['createdTime', 'name', 'label', 'type', 'deviceProfileName', 'customerTitle'],
  profiles: ['createdTime', 'name', 'type', 'transportType', 'description', 'isDefault'],
  ota: ['createdTime', 'type', 'title', 'version', 'tag', 'url', 'fileName', 'contentType', 'checksumAlgorithm', 'checksum', 'dataSize'],
  rpcs: ['createdTime', 'expirationTime', 'status'],
  customers: ['createdTime', 'title', 'email'],
  users: ['createdTime', 'email', 'firstName', 'lastName'],
  apiKeys: ['createdTime', 'expirationTime', 'description', 'enabled'],
} as const;

export type ListName = keyof typeof SORT_PROPERTIES;
export type SortsOf<L extends ListName> = Record<(typeof SORT_PROPERTIES)[L][number], string>;
