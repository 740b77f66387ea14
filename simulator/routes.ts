// Paths come from the contract (spec/load.ts), never hand-copied: the templates are read once in
// the main process, shipped to workers as plain strings, and filled per device at creation.
import { deviceOperations, loadContract, type Contract } from '../spec/load.js';
import type { OperationId } from '../spec/types.js';

export interface DeviceTemplates {
  telemetry: string;
  attributes: string;
  attributeUpdates: string;
  rpcPoll: string;
  rpcReply: string;
  clientRpc: string;
  provision: string;
  firmware: string;
}

const CONTROL_OPERATIONS = [
  'login',
  'saveDevice',
  'getDeviceCredentials',
  'deleteDevice',
  'getTenantDevices',
  'saveDeviceAttributes',
  'sendRpcV1',
  'sendRpcV2',
  'saveDeviceProfile',
] as const satisfies readonly OperationId[];
export type ControlOperation = (typeof CONTROL_OPERATIONS)[number];

export type ControlTemplates = Record<ControlOperation, string>;

export interface Templates {
  device: DeviceTemplates;
  control: ControlTemplates;
}

function deviceTemplate(contract: Contract, op: number, method: string, operationId?: string): string {
  const found = deviceOperations(contract).find((o) => o.op === op && o.method === method && (!operationId || o.operationId === operationId));
  if (!found) throw new Error(`the contract has no device operation ${op} (${method.toUpperCase()})`);
  return found.path;
}

export function templatesFrom(contract: Contract): Templates {
  const control = {} as ControlTemplates;
  for (const id of CONTROL_OPERATIONS) {
    const operation = contract.byId.get(id);
    if (!operation) throw new Error(`the contract has no control operation ${id}`);
    control[id] = operation.path;
  }
  return {
    device: {
      telemetry: deviceTemplate(contract, 1, 'post'),
      attributes: deviceTemplate(contract, 3, 'get'),
      attributeUpdates: deviceTemplate(contract, 4, 'get'),
      rpcPoll: deviceTemplate(contract, 5, 'get'),
      rpcReply: deviceTemplate(contract, 6, 'post'),
      clientRpc: deviceTemplate(contract, 7, 'post'),
      provision: deviceTemplate(contract, 9, 'post'),
      firmware: deviceTemplate(contract, 10, 'get', 'getFirmware'),
    },
    control,
  };
}

export async function loadTemplates(): Promise<Templates> {
  return templatesFrom(await loadContract());
}

/** Fill `{name}` placeholders; values are URI-encoded. */
export function fill(template: string, params: Record<string, string | number>): string {
  let out = template;
  for (const [name, value] of Object.entries(params)) out = out.replace(`{${name}}`, encodeURIComponent(String(value)));
  return out;
}

/** A device's request paths, built once when the device is created. */
export interface DeviceRoutes {
  telemetry: string;
  attributes: string;
  attributeUpdates: string;
  rpcPoll: string;
  /** rpcReplyHead + id + rpcReplyTail */
  rpcReplyHead: string;
  rpcReplyTail: string;
  clientRpc: string;
  firmware: string;
}

export function deviceRoutes(t: DeviceTemplates, basePath: string, token: string, pollTimeoutMs: number): DeviceRoutes {
  const at = (template: string) => basePath + fill(template, { accessToken: token });
  const [head, tail = ''] = at(t.rpcReply).split('{requestId}');
  return {
    telemetry: at(t.telemetry),
    attributes: at(t.attributes),
    attributeUpdates: `${at(t.attributeUpdates)}?timeout=${pollTimeoutMs}`,
    rpcPoll: `${at(t.rpcPoll)}?timeout=${pollTimeoutMs}`,
    rpcReplyHead: head,
    rpcReplyTail: tail,
    clientRpc: at(t.clientRpc),
    firmware: at(t.firmware),
  };
}
