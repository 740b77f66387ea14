// The driver: server-side load through the control API at fixed arrival rates (open model, each
// call sent at its intended time through a pacer), sent only to devices whose polls are on the
// wire (the groups report them online). Its calls go over a link of their own (the wire), with
// the control API's login; a 401 logs in again and sends the call once more.
// Two-way RPC is timed end to end from its intended send time (REST call -> device got it ->
// reply -> REST response) and the answer must carry the command's sequence number. Shared-
// attribute writes carry their send time and a per-device sequence number, so devices time the
// push and count the changes that never reached them.
import { startArrivals, type Arrivals } from './arrivals.js';
import { monoNow } from './clock.js';
import type { Control } from './control.js';
import { PUSH_SENT_AT, PUSH_SEQ, recordExchange, statusOutcome } from './device.js';
import type { Outcome, PathName, Recorder } from './metrics.js';
import { createPacer, type Pacer } from './pacer.js';
import { requestText, utf8 } from './request-text.js';
import { fill } from './routes.js';
import type { Scenario } from './scenario.js';
import { exchange, type Exchange } from './exchange.js';
import { createWire } from './wire.js';
import type { Body } from '../spec/types.js';

export interface DriverConfig {
  scenario: Scenario;
  requestTimeoutMs: number;
  insecure: boolean;
  /** Connections the driver may hold at once; beyond them calls wait in its backlog (reported as queued). */
  maxConnections: number;
}

export interface Driver {
  /** Devices (control ids) whose polls are open: from now on they may be driven. */
  online(deviceIds: readonly string[]): void;
  /** Issue nothing new; resolves when every call in flight has ended. */
  drain(): Promise<void>;
  /** End: calls still open end as `unfinished`, connections closed. */
  end(): void;
}

export const RPC_METHOD = 'simCommand';

/** Whether a two-way RPC answer is the device's reply to the command with this sequence number. */
export function replyMatches(body: string, seq: number): boolean {
  try {
    const reply = JSON.parse(body) as { seq?: unknown } | null;
    return reply?.seq === seq;
  } catch {
    return false;
  }
}

/** A device the driver calls: its two call paths, and its next attribute-change sequence number. */
interface Target {
  rpcUrl: string;
  writeUrl: string;
  writeSeq: number;
}

/** A call and what the driver needs when it ends. */
interface Call {
  path: PathName;
  method: 'POST';
  url: string;
  body: string;
  seq: number;
  /** Sent again after a fresh login (a 401 answered the first). */
  retried: boolean;
}

/** `shared`: the process's pacer when a group of devices runs in this process too (one timer for both); else the driver has its own. */
export function startDriver(control: Control, config: DriverConfig, recorder: Recorder, shared?: Pacer): Driver {
  const { driver } = config.scenario;
  const base = new URL(control.url);
  const basePath = base.pathname.replace(/\/+$/, '');
  const pacer = shared ?? createPacer();
  const wire = createWire({ url: control.url, insecure: config.insecure, maxConnectionsPerLink: config.maxConnections, maxConnections: config.maxConnections, woke: (now) => pacer.realign(now) });
  const link = wire.link();
  /** Devices online, with their call paths filled once (not per call). */
  const targets: Target[] = [];
  let rpcSeq = 0;
  let cursor = 0;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  let streams: Arrivals[] = [];

  const textOf = (call: Call) => requestText(call.method, call.url, base.host, call.body, `x-authorization: ${control.authorization()}\r\n`);
  const limitOf = (path: PathName) => (path === 'rpc' ? driver.rpcTimeoutMs + config.requestTimeoutMs : config.requestTimeoutMs);
  const send = (call: Call, intendedAt: number) => link.send(exchange(call.path, textOf(call), call.path === 'rpc', intendedAt, limitOf(call.path), done, call));

  const rpcOutcome = (ex: Exchange): Outcome => (ex.status !== 200 ? `status ${ex.status}` : replyMatches(utf8(ex.body), (ex.owner as Call).seq) ? 'ok' : 'mismatch');

  function done(ex: Exchange): void {
    const call = ex.owner as Call;
    if (ex.status === 401 && !ex.failure && !call.retried) {
      // The login expired: log in again, then the same call once more (still timed from its intended time).
      call.retried = true;
      control.login().then(() => send(call, ex.intendedAt), () => finish(ex));
      return;
    }
    finish(ex);
  }
  function finish(ex: Exchange): void {
    recordExchange(recorder, ex, 'intended', ex.path === 'rpc' ? rpcOutcome : statusOutcome);
    if (--inFlight === 0) drained?.();
  }

  function issueRpc(intendedAt: number): void {
    const seq = rpcSeq++;
    const request = { method: RPC_METHOD, params: { sentAt: Math.min(intendedAt, monoNow()), seq }, timeout: driver.rpcTimeoutMs } satisfies Body<'sendRpcV1'>;
    inFlight++;
    send({ path: 'rpc', method: 'POST', url: targets[cursor++ % targets.length].rpcUrl, body: JSON.stringify(request), seq, retried: false }, intendedAt);
  }
  function issueWrite(intendedAt: number): void {
    const target = targets[cursor++ % targets.length];
    const seq = target.writeSeq++;
    const values = { [PUSH_SENT_AT]: Math.min(intendedAt, monoNow()), [PUSH_SEQ]: seq } satisfies Body<'saveDeviceAttributes'>;
    inFlight++;
    send({ path: 'attributeWrite', method: 'POST', url: target.writeUrl, body: JSON.stringify(values), seq, retried: false }, intendedAt);
  }
  const rpcTemplate = driver.rpcApi === 'v1' ? control.templates.sendRpcV1 : control.templates.sendRpcV2;
  const targetOf = (deviceId: string): Target => ({
    rpcUrl: basePath + fill(rpcTemplate, { deviceId }),
    writeUrl: basePath + fill(control.templates.saveDeviceAttributes, { entityType: 'DEVICE', entityId: deviceId, scope: 'SHARED_SCOPE' }),
    writeSeq: 0,
  });

  const plans = [
    { rate: driver.rpcRate, send: issueRpc },
    { rate: driver.attrRate, send: issueWrite },
  ].filter((p) => p.rate > 0);

  return {
    online(deviceIds) {
      for (const id of deviceIds) targets.push(targetOf(id));
      // The arrivals start with the first device online: none is scheduled into an empty fleet.
      if (streams.length || !targets.length) return;
      const startAt = monoNow();
      streams = plans.map((p) => startArrivals(pacer, { rate: p.rate, startAt, send: p.send }));
    },
    drain() {
      for (const stream of streams) stream.stop();
      // A shared pacer keeps the group's entries (the stopped arrivals' next ones run as no-ops).
      if (!shared) pacer.clear();
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => (drained = resolve));
    },
    end() {
      if (!shared) pacer.clear();
      wire.destroy('unfinished');
    },
  };
}
