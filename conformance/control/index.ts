// The control adapter: everything the suite does on the server side, as ThingsBoard REST calls.
import { SkipCase } from '../verdict.js';
import type { ControlContext } from './call.js';
import { deviceApi } from './devices.js';
import { serverSideApi } from './server-side.js';

export { ControlError, login, type ControlContext, type LoginResult } from './call.js';

export function createControl(ctx: ControlContext) {
  const devices = deviceApi(ctx);
  return { ...devices, ...serverSideApi(ctx, devices) };
}

export type Control = ReturnType<typeof createControl>;

/** Stands in when the control API is unavailable: any use skips the case with the reason. */
export function unavailableControl(reason: string): Control {
  return new Proxy({} as Control, {
    get: () => () => {
      throw new SkipCase(`needs the control API: ${reason}`);
    },
  });
}
