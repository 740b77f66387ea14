// The calibration target: an HTTP server whose answer times are known because it sets them. It
// speaks the device API and the part of the control API the simulator uses, and answers every
// request `latencyMs` after it arrived (a long poll: when its event comes, plus `latencyMs`, or at
// its timeout). It can fall silent for a while (it holds everything, then answers), answer a share
// of the simulator's requests 503 and never answer another share. It records what it really did,
// per simulator path: each outcome, and how long it held each request (arrival -> answer written,
// or -> the client gave up). Timestamps are clock.ts milliseconds, the simulator's own clock.
import { createHash } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { monoNow } from '../clock.js';
import { createHistogram, encodeHistogram, recordMicros, type Histogram } from '../histograms.js';
import type { Outcome, PathName } from '../metrics.js';
import { createRandom } from '../profiles.js';
import type { Templates } from '../routes.js';

export interface TargetPlan {
  latencyMs: number;
  /** Silent from `afterMs` after the first device request, for `forMs`; null: never silent. */
  silence: { afterMs: number; forMs: number } | null;
  /** Shares of the simulator's own requests (telemetry, device-side RPC, attribute writes, RPC calls) answered 503, and never answered. */
  errorShare: number;
  hangShare: number;
  seed: number;
}

/** What the target did on one simulator path. */
export interface TargetPath {
  outcomes: Partial<Record<Outcome, number>>;
  /** How long each request was held (µs), every outcome; encoded (histograms.ts). */
  held: string;
  /** Requests that arrived while the target was silent. */
  arrivedInSilence: number;
}

export interface TargetRecords {
  plan: TargetPlan;
  /** When the silence really began and ended (clock.ts ms); null when there was none (yet). */
  silence: { from: number; to: number } | null;
  paths: Partial<Record<PathName, TargetPath>>;
  /** Attribute changes answered 200 while the device had no poll open: never pushed. */
  pushesLost: number;
  pollTimeouts: number;
}

export interface KnownTarget {
  server: Server;
  records(): TargetRecords;
}

interface PathCell {
  outcomes: Partial<Record<Outcome, number>>;
  held: Histogram;
  arrivedInSilence: number;
}

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

type Route = 'telemetry' | 'attributes' | 'attributeUpdates' | 'rpcPoll' | 'rpcReply' | 'clientRpc' | 'provision' | 'firmware'
  | 'login' | 'saveDevice' | 'credentials' | 'deleteDevice' | 'findDevice' | 'saveAttributes' | 'rpcV1' | 'rpcV2';

/** A template's placeholders become capture groups; the routes are compiled once. */
function matcher(template: string): RegExp {
  return new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/]+)')}$`);
}

const FIRMWARE = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));
const FIRMWARE_SHA256 = createHash('sha256').update(FIRMWARE).digest('hex');
const JSON_TYPE = { 'content-type': 'application/json' };

export function createKnownTarget(templates: Templates, plan: TargetPlan): KnownTarget {
  const d = templates.device;
  const c = templates.control;
  const routes: [string, RegExp, Route][] = [
    ['POST', matcher(d.telemetry), 'telemetry'],
    ['GET', matcher(d.attributeUpdates), 'attributeUpdates'],
    ['GET', matcher(d.attributes), 'attributes'],
    ['GET', matcher(d.rpcPoll), 'rpcPoll'],
    ['POST', matcher(d.rpcReply), 'rpcReply'],
    ['POST', matcher(d.clientRpc), 'clientRpc'],
    ['POST', matcher(d.provision), 'provision'],
    ['GET', matcher(d.firmware), 'firmware'],
    ['POST', matcher(c.login), 'login'],
    ['POST', matcher(c.saveDevice), 'saveDevice'],
    ['GET', matcher(c.getDeviceCredentials), 'credentials'],
    ['DELETE', matcher(c.deleteDevice), 'deleteDevice'],
    ['GET', matcher(c.getTenantDevices), 'findDevice'],
    ['POST', matcher(c.saveDeviceAttributes), 'saveAttributes'],
    ['POST', matcher(c.sendRpcV1), 'rpcV1'],
    ['POST', matcher(c.sendRpcV2), 'rpcV2'],
  ];
  const random = createRandom(plan.seed);
  const byToken = new Map<string, Device>();
  const byId = new Map<string, Device>();
  const cells = new Map<PathName, PathCell>();
  let silent = false;
  let silence: TargetRecords['silence'] = null;
  let silenceArmed = false;
  let heldBack: (() => void)[] = [];
  let pushesLost = 0;
  let pollTimeouts = 0;
  let devices = 0;

  const cell = (path: PathName) => {
    let found = cells.get(path);
    if (!found) cells.set(path, (found = { outcomes: {}, held: createHistogram(), arrivedInSilence: 0 }));
    return found;
  };
  const record = (path: PathName, outcome: Outcome, arrivedAt: number) => {
    const x = cell(path);
    x.outcomes[outcome] = (x.outcomes[outcome] ?? 0) + 1;
    recordMicros(x.held, (monoNow() - arrivedAt) * 1000);
  };

  /** Run `answer` now, or at the end of the silence if the target is silent. */
  const whenSpeaking = (answer: () => void) => (silent ? heldBack.push(answer) : answer());
  /** Run `answer` latencyMs from now (later if the target is silent then). */
  const afterLatency = (answer: () => void): void => void setTimeout(whenSpeaking, plan.latencyMs, answer);

  function armSilence(): void {
    silenceArmed = true;
    if (!plan.silence) return;
    const { afterMs, forMs } = plan.silence;
    setTimeout(() => {
      silent = true;
      silence = { from: monoNow(), to: Infinity };
      setTimeout(() => {
        silent = false;
        silence!.to = monoNow();
        const answers = heldBack;
        heldBack = [];
        for (const answer of answers) answer();
      }, forMs);
    }, afterMs);
  }

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

  const send = (res: ServerResponse, status: number, body = '') => {
    if (res.writableEnded || res.destroyed) return false;
    res.writeHead(status, body ? { ...JSON_TYPE, 'content-length': Buffer.byteLength(body) } : { 'content-length': 0 }).end(body);
    return true;
  };

  /**
   * A request of one of the simulator's measured paths that may be refused or left unanswered:
   * `ok` runs when it is to be answered normally. One the client gives up on before its answer
   * (it closes the connection: never answered, or held longer than the client waits) is recorded
   * then, as the timeout the client must report.
   */
  function measured(path: PathName, res: ServerResponse, arrivedAt: number, ok: () => void): void {
    res.once('close', () => res.writableEnded || record(path, 'timeout', arrivedAt));
    const draw = random();
    if (draw < plan.hangShare) return;
    if (draw < plan.hangShare + plan.errorShare) {
      afterLatency(() => send(res, 503, '{"status":503,"message":"calibration: refused on purpose","errorCode":2}') && record(path, 'status 503', arrivedAt));
      return;
    }
    ok();
  }

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

  const server = createServer((req, res) => {
    const arrivedAt = monoNow();
    const url = new URL(req.url ?? '/', 'http://target');
    let found: [Route, string[]] | undefined;
    for (const [method, pattern, route] of routes) {
      const match = method === req.method ? pattern.exec(url.pathname) : null;
      if (match) {
        found = [route, match.slice(1).map(decodeURIComponent)];
        break;
      }
    }
    if (!found) return void send(res, 404);
    const [route, params] = found;
    const deviceFacing = !['login', 'saveDevice', 'credentials', 'deleteDevice', 'findDevice', 'provision'].includes(route);
    if (deviceFacing && !silenceArmed) armSilence();
    const path = MEASURED[route];
    if (path && silent) cell(path).arrivedInSilence++;
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(route, params, url.searchParams, body, res, arrivedAt));
  });
  server.keepAliveTimeout = 5_000; // as dhi serve's default: idle connections close

  return {
    server,
    records() {
      const paths: TargetRecords['paths'] = {};
      for (const [path, x] of cells) paths[path] = { outcomes: { ...x.outcomes }, held: encodeHistogram(x.held), arrivedInSilence: x.arrivedInSilence };
      return { plan, silence: silence && { ...silence }, paths, pushesLost, pollTimeouts };
    },
  };
}

/** The simulator path each request of a route is measured on (arrivals in the silence are counted per path). */
const MEASURED: Partial<Record<Route, PathName>> = { telemetry: 'telemetry', clientRpc: 'clientRpc', rpcReply: 'rpcReply', saveAttributes: 'attributeWrite', rpcV1: 'rpc', rpcV2: 'rpc' };

function deviceJson(dev: Device): string {
  return JSON.stringify({ id: { entityType: 'DEVICE', id: dev.id }, name: dev.name, type: 'default' });
}
