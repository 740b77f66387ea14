// A virtual device: its own token, paths, payload state, connections (a link of the wire) and
// loops. It sends telemetry, holds the attribute-updates poll and the RPC poll (re-polling on
// 408/504), replies to every RPC, calls device-side RPC and downloads firmware
// (firmware-download.ts) when the scenario asks for them. Its turns are planned on the group's
// pacer and its requests end in callbacks: no timer, promise or closure per request on these paths.
import { monoNow } from './clock.js';
import type { Outcome, PathName, Recorder, Timing } from './metrics.js';
import type { Pacer } from './pacer.js';
import { createPayloadSource, profileKeys } from './profiles.js';
import { jsonRequestHead, requestText, utf8 } from './request-text.js';
import { deviceRoutes, type DeviceRoutes, type DeviceTemplates } from './routes.js';
import type { Scenario } from './scenario.js';
import { exchange, type Exchange } from './exchange.js';
import type { Link } from './wire.js';
import type { Body } from '../spec/types.js';

/**
 * Keys the driver writes as shared attributes: its send time (clock.ts, the machine's monotonic
 * clock, which the device reads too) and a sequence number per device, counting from 0, so that
 * the device sees which changes never reached it.
 */
export const PUSH_SENT_AT = 'simSentAt';
export const PUSH_SEQ = 'simSeq';

/** What the devices of a group share: the plan, where outcomes go, and the group's state. */
export interface DeviceContext {
  scenario: Scenario;
  recorder: Recorder;
  pacer: Pacer;
  /** The Host header's value. */
  host: string;
  /** How long a request may stay open; a long poll, its own timeout plus this. */
  requestTimeoutMs: number;
  /** Measured requests in flight: the group waits for them before it ends. */
  inFlight: number;
  /** False once the run stops issuing: no loop starts another turn. */
  issuing: boolean;
  /** True once the group ends: polls are not renewed. */
  ending: boolean;
  /** Called whenever a measured request ends. */
  settled(): void;
}

export interface VirtualDevice {
  index: number;
  token: string;
  routes: DeviceRoutes;
  link: Link;
  ctx: DeviceContext;
  /** The next message's values, as a JSON object's text. */
  nextValues: () => string;
  /** Data points in each telemetry message. */
  points: number;
  /** Last client timestamp used, so timestamped telemetry never repeats a ts for this device. */
  lastTs: number;
  /** Highest attribute-change sequence number pushed to this device (-1: none yet). */
  lastSeq: number;
  /** Connections not yet open: its polls (until on the wire), one opened ahead of its first request; at 0 the device is online and may be driven. */
  toOpen: number;
  /** Each poll's request, the same every time. */
  pollTexts: { attributes: string; rpc: string };
  /** A telemetry request's text up to its content-length value, the same for every message. */
  telemetryHead: string;
}

export function createDevice(index: number, token: string, templates: DeviceTemplates, basePath: string, link: Link, ctx: DeviceContext, seed: number): VirtualDevice {
  const { scenario } = ctx;
  const plan = scenario.telemetry;
  const routes = deviceRoutes(templates, basePath, token, scenario.polls.timeoutMs);
  return {
    index,
    token,
    routes,
    link,
    ctx,
    nextValues: createPayloadSource(scenario.profile, seed, index),
    points: profileKeys(scenario.profile).length * (plan.model !== 'off' && plan.form === 'array' ? plan.batch : 1),
    lastTs: 0,
    lastSeq: -1,
    toOpen: (scenario.polls.attributes ? 1 : 0) + (scenario.polls.rpc ? 1 : 0),
    pollTexts: { attributes: requestText('GET', routes.attributeUpdates, ctx.host), rpc: requestText('GET', routes.rpcPoll, ctx.host) },
    telemetryHead: jsonRequestHead('POST', routes.telemetry, ctx.host),
  };
}

const ERROR_PAUSE_MS = 1000; // after a failed poll, so a broken server is not hammered in a loop

/**
 * A telemetry message's request text. Its body is ASCII (the profile's keys, numbers, booleans),
 * so its length in chars is its length in bytes: no Buffer.byteLength, which flattens the body
 * (a string built piece by piece) only to count it; the text is flattened once, when written.
 */
export function telemetryText(device: VirtualDevice): string {
  const body = telemetryBody(device, device.ctx.scenario);
  return device.telemetryHead + body.length + '\r\n\r\n' + body;
}

/**
 * Record a measured request's outcome: timed from the earlier of its intended and its actual send
 * time (an early send is not a shorter wait), its send lag and backlog wait apart. A request that
 * never left is `dropped`, untimed.
 */
export function recordExchange(recorder: Recorder, ex: Exchange, timing: Timing, answered: (ex: Exchange) => Outcome = statusOutcome): Outcome {
  const path = ex.path as PathName;
  if (ex.sentAt === 0) {
    recorder.record(path, ex.failure ?? 'dropped', ex.intendedAt, 'untimed');
    return ex.failure ?? 'dropped';
  }
  const startedAt = Math.min(ex.intendedAt, ex.sentAt);
  const outcome = ex.failure ?? answered(ex);
  recorder.record(path, outcome, startedAt, timing, Math.max(0, ex.sentAt - ex.intendedAt), ex.queuedAt ? ex.sentAt - ex.queuedAt : 0, ex.endedAt);
  return outcome;
}

/** An answer's outcome by its status alone. */
export const statusOutcome = (ex: Exchange): Outcome => (ex.status >= 200 && ex.status < 300 ? 'ok' : `status ${ex.status}`);

function telemetryBody(device: VirtualDevice, scenario: Scenario): string {
  const plan = scenario.telemetry;
  if (plan.model === 'off') return '{}';
  if (plan.form === 'values') return device.nextValues();
  const ts = Math.max(Date.now(), device.lastTs + plan.batch);
  device.lastTs = ts;
  if (plan.form === 'timestamped') return `{"ts":${ts},"values":${device.nextValues()}}`;
  let records = '';
  for (let k = plan.batch - 1; k >= 0; k--) records += `${records ? ',' : ''}{"ts":${ts - k},"values":${device.nextValues()}}`;
  return `[${records}]`;
}

/** Send a measured request of the device; `done` hears of its end. */
function sendMeasured(device: VirtualDevice, path: PathName, text: string, intendedAt: number, done: (ex: Exchange) => void): void {
  device.ctx.inFlight++;
  device.link.send(exchange(path, text, false, intendedAt, device.ctx.requestTimeoutMs, done, device));
}

export function settle(ctx: DeviceContext): void {
  ctx.inFlight--;
  ctx.settled();
}

/**
 * One open-model telemetry message, meant for `intendedAt` (clock.ts ms): measuring from there,
 * not from the actual send, corrects for coordinated omission.
 */
export function sendTelemetry(device: VirtualDevice, intendedAt: number): void {
  sendMeasured(device, 'telemetry', telemetryText(device), intendedAt, openTelemetryDone);
}

function openTelemetryDone(ex: Exchange): void {
  const device = ex.owner as VirtualDevice;
  if (recordExchange(device.ctx.recorder, ex, 'intended') === 'ok') device.ctx.recorder.count('telemetryPoints', device.points);
  settle(device.ctx);
}

/** Closed model: send at `at`, and once answered plan the next send an interval after this one's start. */
export function telemetryTurn(device: VirtualDevice, at: number): void {
  if (!device.ctx.issuing) return;
  sendMeasured(device, 'telemetry', telemetryText(device), at, closedTelemetryDone);
}

function closedTelemetryDone(ex: Exchange): void {
  const device = ex.owner as VirtualDevice;
  const { ctx } = device;
  if (recordExchange(ctx.recorder, ex, 'sent') === 'ok') ctx.recorder.count('telemetryPoints', device.points);
  const plan = ctx.scenario.telemetry;
  if (ctx.issuing && plan.model === 'closed') ctx.pacer.at(Math.max(ex.intendedAt + plan.intervalMs, monoNow()), telemetryTurn, device);
  settle(ctx);
}

/** Device-side RPC (operation 7) every interval, as a closed loop. */
export function clientRpcTurn(device: VirtualDevice, at: number): void {
  const plan = device.ctx.scenario.clientRpc;
  if (!device.ctx.issuing || !plan) return;
  const body = JSON.stringify({ method: plan.method, params: {} } satisfies Body<'postClientRpc'>);
  sendMeasured(device, 'clientRpc', requestText('POST', device.routes.clientRpc, device.ctx.host, body), at, clientRpcDone);
}

function clientRpcDone(ex: Exchange): void {
  const device = ex.owner as VirtualDevice;
  const { ctx } = device;
  recordExchange(ctx.recorder, ex, 'sent');
  const plan = ctx.scenario.clientRpc;
  if (ctx.issuing && plan) ctx.pacer.at(Math.max(ex.intendedAt + plan.intervalMs, monoNow()), clientRpcTurn, device);
  settle(ctx);
}

/** One of the device's connections is open (a poll on the wire, or failed); once all are, the device is online. */
export function connectionOpened(device: VirtualDevice): void {
  if (--device.toOpen === 0) device.ctx.recorder.online(device.index);
}

function pollOpened(ex: Exchange): void {
  connectionOpened(ex.owner as VirtualDevice);
}

function sendPoll(device: VirtualDevice, text: string, first: boolean, done: (ex: Exchange) => void): void {
  const ex = exchange(null, text, true, monoNow(), device.ctx.scenario.polls.timeoutMs + device.ctx.requestTimeoutMs, done, device);
  if (first) ex.onWritten = pollOpened;
  device.link.send(ex);
}

export function pollAttributes(device: VirtualDevice, first = false): void {
  if (!device.ctx.ending) sendPoll(device, device.pollTexts.attributes, first, attributePollDone);
}

export function pollRpc(device: VirtualDevice, first = false): void {
  if (!device.ctx.ending) sendPoll(device, device.pollTexts.rpc, first, rpcPollDone);
}

/**
 * What a poll's answer means: the 200 body, null on 408/504 (poll again), undefined once the group
 * ends (nothing more to do) or after an error (counted on its path, untimed: its duration is no
 * delivery latency; poll again after a pause).
 */
function pollAnswer(ex: Exchange, errorPath: PathName, again: (device: VirtualDevice) => void): string | null | undefined {
  const device = ex.owner as VirtualDevice;
  const { ctx } = device;
  if (ctx.ending) return undefined;
  if (ex.status === 200 && !ex.failure) return utf8(ex.body);
  if (!ex.failure && (ex.status === 408 || ex.status === 504)) {
    ctx.recorder.count('pollTimeouts');
    return null;
  }
  ctx.recorder.record(errorPath, ex.failure ?? `status ${ex.status}`, monoNow(), 'untimed');
  ctx.pacer.at(monoNow() + ERROR_PAUSE_MS, again, device);
  return undefined;
}

export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An attribute update: a push is timed from the driver's send time; a gap in the per-device
 * sequence numbers is changes written while no poll was open (ThingsBoard drops those too),
 * counted as `attributeLost`.
 */
function attributePollDone(ex: Exchange): void {
  const body = pollAnswer(ex, 'attributePush', pollAttributes);
  if (body === undefined) return;
  const device = ex.owner as VirtualDevice;
  const { ctx } = device;
  if (body !== null) {
    ctx.recorder.count('attributePolls');
    const update = parseObject(body);
    const sentAt = update?.[PUSH_SENT_AT];
    const seq = update?.[PUSH_SEQ];
    if (typeof sentAt !== 'number' || typeof seq !== 'number') ctx.recorder.record('attributePush', 'other', monoNow(), 'untimed');
    else {
      ctx.recorder.count('updatesDelivered');
      if (seq > device.lastSeq + 1) ctx.recorder.count('attributeLost', seq - device.lastSeq - 1);
      device.lastSeq = Math.max(device.lastSeq, seq);
      ctx.recorder.record('attributePush', 'ok', sentAt, 'sent');
    }
  }
  pollAttributes(device);
}

/** A command: timed from the driver's send time, then answered with its seq; the next poll follows the reply. */
function rpcPollDone(ex: Exchange): void {
  const body = pollAnswer(ex, 'rpcDelivery', pollRpc);
  if (body === undefined) return;
  const device = ex.owner as VirtualDevice;
  const { ctx } = device;
  if (body === null) return pollRpc(device);
  ctx.recorder.count('rpcPolls');
  const command = parseObject(body);
  // The specification allows the id to be carried as a string.
  const id = typeof command?.id === 'number' || typeof command?.id === 'string' ? Number(command.id) : NaN;
  if (!command || !Number.isInteger(id) || id < 0) {
    ctx.recorder.record('rpcDelivery', 'other', monoNow(), 'untimed');
    return pollRpc(device);
  }
  ctx.recorder.count('rpcDelivered');
  const params = command.params as { sentAt?: unknown; seq?: unknown } | undefined;
  const sentAt = typeof params?.sentAt === 'number' ? params.sentAt : undefined;
  ctx.recorder.record('rpcDelivery', sentAt === undefined ? 'other' : 'ok', sentAt ?? monoNow(), sentAt === undefined ? 'untimed' : 'sent');
  const reply = `{"result":"ok","method":${JSON.stringify(command.method ?? null)},"seq":${typeof params?.seq === 'number' ? params.seq : null},"device":${device.index}}`;
  const path = device.routes.rpcReplyHead + id + device.routes.rpcReplyTail;
  sendMeasured(device, 'rpcReply', requestText('POST', path, ctx.host, reply), monoNow(), rpcReplyDone);
}

function rpcReplyDone(ex: Exchange): void {
  const device = ex.owner as VirtualDevice;
  if (recordExchange(device.ctx.recorder, ex, 'sent') === 'ok') device.ctx.recorder.count('rpcReplied');
  pollRpc(device);
  settle(device.ctx);
}
