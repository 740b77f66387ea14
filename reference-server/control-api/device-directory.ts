// DeviceController's other reads and the customer assignment: device infos (one, tenant and customer
// pages, with the device state's `active`), a customer's devices, devices by ids, device types, the
// by-name lookup, the count a profile package would reach, and assigning a device to a customer or
// taking it back.
import { badRequest } from '../errors.js';
import { deviceByNameOr404, deviceJson, deviceOr404, orNotFound, pageData, pageQuery, uuidList } from './entities.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { DeviceState } from '../device-state.js';
import type { CustomerRecord, DeviceFilter, DeviceRecord, Store } from '../store/types.js';
import type { Query, Schema } from '../../spec/types.js';

type ListParams = Query<'getTenantDeviceInfos' | 'getCustomerDeviceInfos'>;

const customerOr404 = (store: Store, id: string): CustomerRecord => orNotFound(store.customerById(id), 'Customer', id);

/** ThingsBoard's DeviceInfo: the device with its customer's title, its profile's name and whether it is active. */
function deviceInfoJson(store: Store, state: DeviceState, d: DeviceRecord): Schema<'DeviceInfo'> {
  return {
    ...deviceJson(d),
    customerTitle: d.customerId ? (store.customerById(d.customerId)?.title ?? null) : null,
    customerIsPublic: false,
    deviceProfileName: store.profileById(d.profileId)?.name ?? null,
    active: state.isActive(d.id),
  };
}

/** ThingsBoard's DeviceInfoFilter: `type` when given, else `deviceProfileId`; and `active` with either. */
function filterOf(state: DeviceState, query: ListParams, customerId?: string): DeviceFilter {
  const active = query.active === undefined ? {} : { [query.active ? 'among' : 'notAmong']: state.activeDevices() };
  if (query.type?.trim()) return { customerId, type: query.type, ...active };
  return { customerId, profileId: query.deviceProfileId || undefined, ...active };
}

function assign(store: Store, { deviceId, customerId }: { deviceId: string; customerId: string | null }): DeviceRecord {
  const device = deviceOr404(store, deviceId);
  if (customerId) customerOr404(store, customerId);
  else if (!device.customerId) throw badRequest("Device isn't assigned to any customer!");
  const next = { ...device, customerId, version: device.version + 1 };
  store.updateDevice(next);
  return next;
}

export function deviceDirectoryHandlers({ store, deviceState }: ServerContext): Handlers {
  const runAssign = (arg: { deviceId: string; customerId: string | null }) => assign(store, arg);
  const info = (d: DeviceRecord) => deviceInfoJson(store, deviceState, d);
  const customerOf = ({ customerId }: { customerId: string }) => customerOr404(store, customerId).id;

  return {
    getDeviceInfo(request, reply) {
      return reply.code(200).send(info(deviceOr404(store, request.params.deviceId)));
    },

    getTenantDeviceInfos(request, reply) {
      const page = pageQuery(request.query, 'devices');
      return reply.code(200).send(pageData(store.listDevices(page, filterOf(deviceState, request.query)), page, info));
    },

    getCustomerDevices(request, reply) {
      const customerId = customerOf(request.params);
      const page = pageQuery(request.query, 'devices');
      const { type } = request.query;
      return reply.code(200).send(pageData(store.listDevices(page, { customerId, type: type?.trim() ? type : undefined }), page, deviceJson));
    },

    getCustomerDeviceInfos(request, reply) {
      const customerId = customerOf(request.params);
      const page = pageQuery(request.query, 'devices');
      return reply.code(200).send(pageData(store.listDevices(page, filterOf(deviceState, request.query, customerId)), page, info));
    },

    getTenantDeviceByName(request, reply) {
      return reply.code(200).send(deviceJson(deviceByNameOr404(store, request.query.deviceName)));
    },

    getDevicesByIds(request, reply) {
      const ids = uuidList(request.query.deviceIds);
      return reply.code(200).send(ids.flatMap((id) => {
        const device = store.deviceById(id);
        return device ? [deviceJson(device)] : [];
      }));
    },

    /** The devices of a profile without a package of their own, which a profile package would reach. */
    countDevicesWithoutPackage(request, reply) {
      const { otaPackageType, deviceProfileId } = request.params;
      const without = otaPackageType === 'FIRMWARE' ? { withoutFirmware: true } : { withoutSoftware: true };
      const { totalElements } = store.listDevices({ page: 0, pageSize: 1 }, { profileId: deviceProfileId, ...without });
      return reply.code(200).send(totalElements);
    },

    getDeviceTypes(_request, reply) {
      return reply.code(200).send(store.deviceTypes().map((type) => ({ entityType: 'DEVICE', type })));
    },

    async assignDeviceToCustomer(request, reply) {
      const { customerId, deviceId } = request.params;
      return reply.code(200).send(deviceJson(await store.write(runAssign, { deviceId, customerId })));
    },

    async unassignDeviceFromCustomer(request, reply) {
      const { deviceId } = request.params;
      return reply.code(200).send(deviceJson(await store.write(runAssign, { deviceId, customerId: null })));
    },
  };
}
