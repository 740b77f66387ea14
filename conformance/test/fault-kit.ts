// What the fault files (faults.ts, blind-spot-faults.ts, fidelity-faults.ts) share: the device API
// paths they match (the token is the first group; provisioning, which has no token, is not a device
// path) and the reading and rewriting of the requests and answers that pass the proxy.
import type { ProxyRequest, ProxyResponse } from './fault-proxy.js';

/** `rest`: a regex source of what follows the token. */
export const devicePath = (rest: string) => new RegExp(`^/api/v1/(?!provision)([^/?]+)/${rest}(\\?|$)`);
export const TELEMETRY = devicePath('telemetry');
export const ATTRIBUTES = devicePath('attributes');
export const UPDATES = devicePath('attributes/updates');
export const RPC_POLL = devicePath('rpc');
export const FIRMWARE = devicePath('firmware');

/** A body's JSON, or undefined when it is none. */
export const jsonOf = (body: Buffer): unknown => {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
};

/** The answer with this JSON body instead (and this status). */
export const withJson = (res: ProxyResponse, value: unknown, status = res.status): ProxyResponse =>
  ({ status, headers: { ...res.headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(value)) });

export const queryOf = (req: ProxyRequest) => new URL(req.url, 'http://proxy').searchParams;
export const pathOf = (req: ProxyRequest) => req.url.split('?')[0];
