// Server-side actions the device API reacts to: RPC commands, device-side RPC rules (dhi
// extension), OTA packages, provisioning profiles, customers and claiming.
import { createHash } from 'node:crypto';
import type { Reply } from '../client.js';
import { bodyOf, call, ControlError, type ControlContext } from './call.js';
import type { DeviceBody } from './devices.js';
import type { Body, Ok, Schema } from '../../spec/types.js';

export type RpcCommand = Schema<'ServerRpcRequest'>;
export type PackageType = Schema<'OtaPackageInput'>['type'];
export type ProvisionType = Schema<'ProvisionConfiguration'>['type'];

/** What a case needs of a created package (the suite's own record, not a wire shape). */
export interface OtaPackage {
  id: string;
  title: string;
  version: string;
  checksum: string;
  checksumAlgorithm: Schema<'ChecksumAlgorithm'>;
}

/** The contract's operation for each RPC endpoint: one-way answers 200 with no body. */
const RPC_OPERATIONS = {
  1: { oneway: 'sendOneWayRpcV1', twoway: 'sendRpcV1' },
  2: { oneway: 'sendOneWayRpcV2', twoway: 'sendRpcV2' },
} as const;

export function serverSideApi(ctx: ControlContext, devices: { getDevice(id: string): Promise<DeviceBody>; saveDevice(d: DeviceBody): Promise<DeviceBody> }) {
  /** Server-side RPC; the reply is returned whatever its status (the cases judge it). */
  /** A command as an object, or as JSON text (to send numbers such as 1.0 as they are written). */
  function sendRpc(direction: 'oneway' | 'twoway', deviceId: string, command: RpcCommand | string, version: 1 | 2 = 1): Promise<Reply> {
    const path = version === 1 ? `/api/plugins/rpc/${direction}/${deviceId}` : `/api/rpc/${direction}/${deviceId}`;
    const body = typeof command === 'string' ? { body: command } : { json: command };
    const timeout = typeof command === 'string' ? undefined : command.timeout;
    return call(ctx, RPC_OPERATIONS[version][direction], { method: 'POST', path, ...body, deadlineMs: (timeout ?? 10_000) + 10_000 }, 'any');
  }

  /** A persistent command's record (GET /api/rpc/persistent/{rpcId}): 200 with it, or 404 once deleted. */
  function persistentRpc(rpcId: string): Promise<Reply> {
    return call(ctx, 'getPersistentRpc', { method: 'GET', path: `/api/rpc/persistent/${rpcId}` }, [200, 404]);
  }

  /** Deletes a persistent command; `expect` widens the accepted answers (a second delete is 404). */
  function deletePersistentRpc(rpcId: string, expect: number[] = [200]): Promise<Reply> {
    return call(ctx, 'deletePersistentRpc', { method: 'DELETE', path: `/api/rpc/persistent/${rpcId}` }, expect);
  }

  /** Sets a device-side RPC rule; false when the server has no dhi rules API (e.g. ThingsBoard). */
  async function setRule(method: string, rule: Body<'setRule'>): Promise<boolean> {
    const reply = await call(ctx, 'setRule', { method: 'PUT', path: `/api/dhi/rules/${encodeURIComponent(method)}`, json: rule }, [200, 404, 405]);
    if (reply.status !== 200) return false;
    ctx.cleanup(() => call(ctx, 'deleteRule', { method: 'DELETE', path: `/api/dhi/rules/${encodeURIComponent(method)}` }, [200, 404]));
    return true;
  }

  async function createPackage(input: { type: PackageType; title: string; version: string; profileId: string; bytes: Buffer; fileName: string }): Promise<OtaPackage> {
    const info = bodyOf<Ok<'saveOtaPackageInfo'>>(
      await call(ctx, 'saveOtaPackageInfo', {
        method: 'POST',
        path: '/api/otaPackage',
        json: { title: input.title, version: input.version, type: input.type, deviceProfileId: { entityType: 'DEVICE_PROFILE', id: input.profileId } },
      }),
      'the OTA package',
    );
    const id = info.id.id;
    ctx.cleanup(() => call(ctx, 'deleteOtaPackage', { method: 'DELETE', path: `/api/otaPackage/${id}` }, [200, 404]));
    const uploaded = bodyOf<Ok<'uploadOtaPackage'>>(
      await call(ctx, 'uploadOtaPackage', {
        method: 'POST',
        path: `/api/otaPackage/${id}`,
        query: { checksumAlgorithm: 'SHA256' },
        file: { field: 'file', fileName: input.fileName, contentType: 'application/octet-stream', bytes: input.bytes },
      }),
      'the uploaded OTA package',
    );
    const checksum = createHash('sha256').update(input.bytes).digest('hex');
    if (uploaded.checksum && uploaded.checksum.toLowerCase() !== checksum) {
      throw new ControlError(`control API: the uploaded package's checksum ${uploaded.checksum} is not the SHA-256 of the bytes (${checksum})`);
    }
    return { id, title: input.title, version: input.version, checksum, checksumAlgorithm: 'SHA256' };
  }

  /** Assigns the package to the device; undone (unassigned) after the case, before the package goes. */
  async function assignPackage(deviceId: string, type: PackageType, packageId: string): Promise<void> {
    const field = type === 'FIRMWARE' ? 'firmwareId' : 'softwareId';
    const device = await devices.getDevice(deviceId);
    await devices.saveDevice({ ...device, [field]: { entityType: 'OTA_PACKAGE', id: packageId } });
    ctx.cleanup(async () => devices.saveDevice({ ...(await devices.getDevice(deviceId)), [field]: null }));
  }

  /** Assigns the package to a device profile; undone after the case, before the package goes. */
  async function assignProfilePackage(profileId: string, type: PackageType, packageId: string): Promise<void> {
    const field = type === 'FIRMWARE' ? 'firmwareId' : 'softwareId';
    const read = async () => bodyOf<Ok<'getDeviceProfile'>>(await call(ctx, 'getDeviceProfile', { method: 'GET', path: `/api/deviceProfile/${profileId}` }), 'the device profile');
    const save = (profile: Body<'saveDeviceProfile'>) => call(ctx, 'saveDeviceProfile', { method: 'POST', path: '/api/deviceProfile', json: profile });
    await save({ ...(await read()), [field]: { entityType: 'OTA_PACKAGE', id: packageId } });
    ctx.cleanup(async () => save({ ...(await read()), [field]: null }));
  }

  async function createProvisionProfile(name: string, type: ProvisionType, key: string | null, secret: string | null): Promise<string> {
    const reply = await call(ctx, 'saveDeviceProfile', {
      method: 'POST',
      path: '/api/deviceProfile',
      json: {
        name,
        type: 'DEFAULT',
        transportType: 'DEFAULT',
        provisionType: type,
        provisionDeviceKey: key,
        profileData: {
          configuration: { type: 'DEFAULT' },
          transportConfiguration: { type: 'DEFAULT' },
          provisionConfiguration: { type, provisionDeviceSecret: secret },
        },
      },
    });
    const id = bodyOf<Ok<'saveDeviceProfile'>>(reply, 'the device profile').id.id;
    ctx.cleanup(() => call(ctx, 'deleteDeviceProfile', { method: 'DELETE', path: `/api/deviceProfile/${id}` }, [200, 404]));
    return id;
  }

  /** A customer with one CUSTOMER_USER (claiming needs one); returns that user's JWT. */
  async function createCustomerUser(title: string): Promise<{ customerId: string; jwt: string }> {
    const customer = bodyOf<Ok<'saveCustomer'>>(await call(ctx, 'saveCustomer', { method: 'POST', path: '/api/customer', json: { title } }), 'the customer');
    const customerId = customer.id.id;
    ctx.cleanup(() => call(ctx, 'deleteCustomer', { method: 'DELETE', path: `/api/customer/${customerId}` }, [200, 404]));
    const user = bodyOf<Ok<'saveUser'>>(
      await call(ctx, 'saveUser', {
        method: 'POST',
        path: '/api/user',
        query: { sendActivationMail: false },
        json: { email: `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@conform.example`, authority: 'CUSTOMER_USER', customerId: { entityType: 'CUSTOMER', id: customerId } },
      }),
      'the user',
    );
    const pair = bodyOf<Ok<'getUserToken'>>(await call(ctx, 'getUserToken', { method: 'GET', path: `/api/user/${user.id.id}/token` }), 'the user token');
    return { customerId, jwt: pair.token };
  }

  /** A customer user claims the device by name; the reply whatever its status. */
  function claimDevice(deviceName: string, secretKey: string, jwt: string): Promise<Reply> {
    return call(ctx, 'claimDevice', { method: 'POST', path: `/api/customer/device/${encodeURIComponent(deviceName)}/claim`, json: { secretKey } }, 'any', jwt);
  }

  /** The owning customer's user gives the device up (DELETE .../claim): it has no owner afterwards. */
  async function reclaimDevice(deviceName: string, jwt: string): Promise<void> {
    await call(ctx, 'reclaimDevice', { method: 'DELETE', path: `/api/customer/device/${encodeURIComponent(deviceName)}/claim` }, [200], jwt);
  }

  return { sendRpc, persistentRpc, deletePersistentRpc, setRule, createPackage, assignPackage, assignProfilePackage, createProvisionProfile, createCustomerUser, claimDevice, reclaimDevice };
}
