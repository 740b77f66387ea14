// The device API paths the faults match (faults.ts, blind-spot-faults.ts, fidelity-faults.ts): the
// token is the first group; provisioning, which has no token, is not a device path.

/** `rest`: a regex source of what follows the token. */
export const devicePath = (rest: string) => new RegExp(`^/api/v1/(?!provision)([^/?]+)/${rest}(\\?|$)`);
export const TELEMETRY = devicePath('telemetry');
export const ATTRIBUTES = devicePath('attributes');
export const UPDATES = devicePath('attributes/updates');
export const RPC_POLL = devicePath('rpc');
export const FIRMWARE = devicePath('firmware');
