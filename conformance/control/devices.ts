// Devices, their attributes and telemetry through ThingsBoard's REST API.
import type { Reply } from '../client.js';
import type { Series } from '../checks.js';
import { bodyOf, call, type ControlContext } from './call.js';
import type { Body, Ok, PathParams, Schema } from '../../spec/types.js';
import { randomToken } from '../../spec/access-token.js';

/** A device created for one case through the control API, deleted after it. */
export interface DeviceFixture {
  id: string;
  name: string;
  token: string;
}

export type Scope = PathParams<'getDeviceAttributes'>['scope'];
export type AttributeEntry = Schema<'AttributeEntry'>;
export type DeviceBody = Schema<'Device'>;

const telemetry = (id: string) => `/api/plugins/telemetry/DEVICE/${id}`;

export function deviceApi(ctx: ControlContext) {
  async function createDevice(name: string, options: { profileId?: string; token?: string } = {}): Promise<DeviceFixture> {
    const token = options.token ?? randomToken();
    const body: Body<'saveDevice'> = { name, type: 'default' };
    if (options.profileId) body.deviceProfileId = { entityType: 'DEVICE_PROFILE', id: options.profileId };
    const reply = await call(ctx, 'saveDevice', { method: 'POST', path: '/api/device', query: { accessToken: token }, json: body });
    const device = bodyOf<DeviceBody>(reply, 'the created device');
    ctx.cleanup(() => deleteDevice(device.id.id));
    return { id: device.id.id, name, token };
  }

  function deleteDevice(id: string): Promise<Reply> {
    return call(ctx, 'deleteDevice', { method: 'DELETE', path: `/api/device/${id}` }, [200, 404]);
  }

  async function getDevice(id: string): Promise<DeviceBody> {
    return bodyOf<DeviceBody>(await call(ctx, 'getDevice', { method: 'GET', path: `/api/device/${id}` }), 'the device');
  }

  async function saveDevice(device: DeviceBody): Promise<DeviceBody> {
    return bodyOf<DeviceBody>(await call(ctx, 'saveDevice', { method: 'POST', path: '/api/device', json: device }), 'the saved device');
  }

  /** The device of that name, or undefined. */
  async function deviceByName(name: string): Promise<DeviceBody | undefined> {
    const reply = await call(ctx, 'getTenantDevices', { method: 'GET', path: '/api/tenant/devices', query: { deviceName: name } }, [200, 404]);
    return reply.status === 404 ? undefined : bodyOf<DeviceBody>(reply, 'the device found by name');
  }

  /** The device of that name, or undefined; a device found is deleted after the case. */
  async function adoptDeviceByName(name: string): Promise<DeviceBody | undefined> {
    const device = await deviceByName(name);
    if (device) ctx.cleanup(() => deleteDevice(device.id.id));
    return device;
  }

  async function credentialsToken(id: string): Promise<string> {
    const reply = await call(ctx, 'getDeviceCredentials', { method: 'GET', path: `/api/device/${id}/credentials` });
    return bodyOf<Ok<'getDeviceCredentials'>>(reply, 'the credentials').credentialsId;
  }

  /** A string is sent as it is: JSON text keeps what a JavaScript value cannot (42.0, 9007199254740993). */
  function setAttributes(id: string, scope: PathParams<'saveDeviceAttributes'>['scope'], values: Body<'saveDeviceAttributes'> | string): Promise<Reply> {
    const path = `${telemetry(id)}/attributes/${scope}`;
    return call(ctx, 'saveDeviceAttributes', typeof values === 'string' ? { method: 'POST', path, body: values } : { method: 'POST', path, json: values });
  }

  function deleteAttributes(id: string, scope: Scope, keys: string[]): Promise<Reply> {
    return call(ctx, 'deleteDeviceAttributes', { method: 'DELETE', path: `${telemetry(id)}/${scope}`, query: { keys: keys.join(',') } });
  }

  async function getAttributes(id: string, scope: Scope, keys?: string[]): Promise<AttributeEntry[]> {
    const reply = await call(ctx, 'getDeviceAttributes', { method: 'GET', path: `${telemetry(id)}/values/attributes/${scope}`, query: { keys: keys?.join(',') } });
    return bodyOf<AttributeEntry[]>(reply, 'the attributes');
  }

  /** Typed values (useStrictDataTypes); with a window, every point in it, else the latest per key. */
  async function getTimeseries(id: string, keys: string[], window?: { startTs: number; endTs: number }): Promise<Series> {
    const query = { keys: keys.join(','), useStrictDataTypes: true, ...(window && { ...window, limit: 100 }) };
    const reply = await call(ctx, 'getDeviceTimeseries', { method: 'GET', path: `${telemetry(id)}/values/timeseries`, query });
    return bodyOf<Series>(reply, 'the timeseries');
  }

  return { createDevice, deleteDevice, getDevice, saveDevice, deviceByName, adoptDeviceByName, credentialsToken, setAttributes, deleteAttributes, getAttributes, getTimeseries };
}
