// What the calibration target answers on each route it serves: the device API (long polls held
// until their event or timeout, RPC commands queued for the device's next poll, two-way calls
// waiting for its reply) and the part of the control API the simulator uses. When it answers is
// target-timing.ts's part.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { PathName } from '../metrics.js';
import { send, type Timing } from './target-timing.js';

export type Route = 'telemetry' | 'attributes' | 'attributeUpdates' | 'rpcPoll' | 'rpcReply' | 'clientRpc' | 'provision' | 'firmware'
  | 'login' | 'saveDevice' | 'credentials' | 'deleteDevice' | 'findDevice' | 'saveAttributes' | 'rpcV1' | 'rpcV2';

/** The simulator path each request of a route is measured on (arrivals in the silence are counted per path). */
export const MEASURED: Partial<Record<Route, PathName>> = { telemetry: 'telemetry', clientRpc: 'clientRpc', rpcReply: 'rpcReply', saveAttributes: 'attributeWrite', rpcV1: 'rpc', rpcV2: 'rpc' };

/** Routes that set a run up rather than carry its load: none of them starts the silence's clock. */
export const SETTING_UP: ReadonlySet<Route> = new Set(['login', 'saveDevice', 'credentials', 'deleteDevice', 'findDevice', 'provision']);

interface Poll {
  res: ServerResponse;
  timer: NodeJS.Timeout;
}

interface Device {
  id: string;
  token: string;
  name: string;
  attributePoll: Poll | null;
  rpcPoll: Poll | null;
  /** Commands waiting for the device's next RPC poll. */
  commands: { id: number; body: string; arrivedAt: number }[];
  /** Two-way RPC calls waiting for the device's reply, by request id. */
  calls: Map<number, { res: ServerResponse; arrivedAt: number; timer: NodeJS.Timeout }>;
  nextRpcId: number;
}

const FIRMWARE = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));
const FIRMWARE_SHA256 = createHash('sha256').update(FIRMWARE).digest('hex');

export function createHandlers(timing: Timing) {
  const { record, whenSpeaking, afterLatency, measured } = timing;
  const byToken = new Map<string, Device>();
  const byId = new Map<string, Device>();
  let pushesLost = 0;
  let pollTimeouts = 0;
  let devices = 0;

  const device = (token: string): Device => {
    let found = byToken.get(token);
    if (!found) {
      const id = `00000000-0000-4000-8000-${String(++devices).padStart(12, '0')}`;
      found = { id, token, name: `device-${devices}`, attributePoll: null, rpcPoll: null, commands: [], calls: new Map(), nextRpcId: 0 };
      byToken.set(token, found);
      byId.set(id, found);
    }
    return found;
  };

  function openPoll(res: ServerResponse, query: URLSearchParams, onTimeout: () => void): Poll {
    const timeoutMs = Number(query.get('timeout') ?? 60_000);
    const poll: Poll = {
      res,
      timer: setTimeout(() => whenSpeaking(() => {
        onTimeout();
        if (send(res, 408)) pollTimeouts++;
      }), timeoutMs),
    };
    res.once('close', () => clearTimeout(poll.timer));
    return poll;
  }

  /** Answer the device's RPC poll with a command, or keep the command for its next poll. */
  function deliverCommand(dev: Device, command: Device['commands'][number]): void {
    const poll = dev.rpcPoll;
    if (!poll || poll.res.destroyed) {
      dev.commands.push(command);
      return;
    }
    dev.rpcPoll = null;
    clearTimeout(poll.timer);
    if (send(poll.res, 200, command.body)) record('rpcDelivery', 'ok', command.arrivedAt);
  }

  function handle(route: Route, params: string[], query: URLSearchParams, body: string, res: ServerResponse, arrivedAt: number): void {
    switch (route) {
      case 'telemetry':
        return measured('telemetry', res, arrivedAt, () => afterLatency(() => send(res, 200) && record('telemetry', 'ok', arrivedAt)));
      case 'clientRpc':
        return measured('clientRpc', res, arrivedAt, () => afterLatency(() => send(res, 200, `{"time":${Date.now()}}`) && record('clientRpc', 'ok', arrivedAt)));
      case 'attributes': {
        const shared = `{"shared":{"fw_checksum_algorithm":"SHA256","fw_checksum":"${FIRMWARE_SHA256}"}}`;
        return afterLatency(() => send(res, 200, query.has('sharedKeys') ? shared : '{}'));
      }
      case 'firmware': {
        const size = Number(query.get('size') ?? 0);
        const chunk = Number(query.get('chunk') ?? 0);
        const bytes = size > 0 ? FIRMWARE.subarray(chunk * size, (chunk + 1) * size) : FIRMWARE;
        return afterLatency(() => {
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
        });
      }
      case 'attributeUpdates': {
        const dev = device(params[0]);
        dev.attributePoll = openPoll(res, query, () => (dev.attributePoll = null));
        return;
      }
      case 'rpcPoll': {
        const dev = device(params[0]);
        const command = dev.commands.shift();
        if (command) return afterLatency(() => (send(res, 200, command.body) ? record('rpcDelivery', 'ok', command.arrivedAt) : dev.commands.unshift(command)));
        dev.rpcPoll = openPoll(res, query, () => (dev.rpcPoll = null));
        return;
      }
      case 'rpcReply': {
        const dev = device(params[0]);
        const call = dev.calls.get(Number(params[1]));
        return afterLatency(() => {
          if (send(res, 200)) record('rpcReply', 'ok', arrivedAt);
          if (!call) return;
          dev.calls.delete(Number(params[1]));
          clearTimeout(call.timer);
          if (send(call.res, 200, body)) record('rpc', 'ok', call.arrivedAt);
        });
      }
      case 'saveAttributes': {
        const dev = byId.get(params[1]);
        return measured('attributeWrite', res, arrivedAt, () => afterLatency(() => {
          if (!send(res, 200)) return;
          record('attributeWrite', 'ok', arrivedAt);
          const poll = dev?.attributePoll;
          if (!dev || !poll || poll.res.destroyed) return void pushesLost++;
          dev.attributePoll = null;
          clearTimeout(poll.timer);
          if (send(poll.res, 200, body)) record('attributePush', 'ok', arrivedAt);
        }));
      }
      case 'rpcV1':
      case 'rpcV2': {
        const dev = byId.get(params[0]);
        if (!dev) return void send(res, 404);
        return measured('rpc', res, arrivedAt, () => {
          const request = JSON.parse(body) as { method: string; params: unknown; timeout?: number };
          const id = dev.nextRpcId++;
          let delivered = false;
          const timer = setTimeout(() => whenSpeaking(() => {
            dev.calls.delete(id);
            const status = route === 'rpcV2' ? 504 : delivered ? 408 : 409;
            if (send(res, status)) record('rpc', `status ${status}`, arrivedAt);
          }), request.timeout ?? 10_000);
          dev.calls.set(id, { res, arrivedAt, timer });
          afterLatency(() => {
            delivered = true;
            deliverCommand(dev, { id, body: JSON.stringify({ id, method: request.method, params: request.params }), arrivedAt });
          });
        });
      }
      case 'login':
        return void send(res, 200, '{"token":"calibration","refreshToken":"calibration"}');
      case 'saveDevice': {
        const { name } = JSON.parse(body) as { name: string };
        const dev = device(query.get('accessToken') ?? `token-${devices + 1}`);
        dev.name = name;
        return void send(res, 200, deviceJson(dev));
      }
      case 'credentials': {
        const dev = byId.get(params[0]);
        return void (dev ? send(res, 200, JSON.stringify({ credentialsId: dev.token, credentialsType: 'ACCESS_TOKEN' })) : send(res, 404));
      }
      case 'findDevice': {
        const dev = [...byToken.values()].find((x) => x.name === query.get('deviceName'));
        return void (dev ? send(res, 200, deviceJson(dev)) : send(res, 404));
      }
      case 'deleteDevice': {
        const dev = byId.get(params[0]);
        if (dev) {
          byId.delete(dev.id);
          byToken.delete(dev.token);
        }
        return void send(res, 200);
      }
      case 'provision': {
        const { deviceName } = JSON.parse(body) as { deviceName: string };
        const dev = device(`prov-${deviceName}`);
        dev.name = deviceName;
        return void send(res, 200, JSON.stringify({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN', credentialsValue: dev.token }));
      }
    }
  }

  return { handle, counts: () => ({ pushesLost, pollTimeouts }) };
}

function deviceJson(dev: Device): string {
  return JSON.stringify({ id: { entityType: 'DEVICE', id: dev.id }, name: dev.name, type: 'default' });
}
