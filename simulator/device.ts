// A virtual device: its own token, paths, payload state and loops. It sends telemetry, holds the
// attribute-updates poll and the RPC poll (re-polling on 408/504), replies to every RPC, calls
// device-side RPC and downloads firmware when the scenario asks for them.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { checksum, CHECKSUM_ALGORITHMS, type ChecksumAlgorithm } from '../reference-server/control-api/checksums.js';
import { monoNow } from './clock.js';
import type { H1Client } from './h1-client.js';
import { classifyError, isAbort, send, sendForBytes, sendNotifying } from './http.js';
import type { PathName, Recorder, Timing } from './metrics.js';
import { createPayloadSource, type Values } from './profiles.js';
import { deviceRoutes, type DeviceRoutes, type DeviceTemplates } from './routes.js';
import type { Scenario } from './scenario.js';
import type { Body } from '../spec/types.js';

/**
 * Keys the driver writes as shared attributes: its send time (clock.ts, the machine's monotonic
 * clock, which the device reads too) and a sequence number per device, counting from 0, so that
 * the device sees which changes never reached it.
 */
export const PUSH_SENT_AT = 'simSentAt';
export const PUSH_SEQ = 'simSeq';

export interface DeviceContext {
  scenario: Scenario;
  recorder: Recorder;
  /** Counts requests that must finish before the run may close (writes, replies). */
  track<T>(work: Promise<T>): Promise<T>;
}

export interface VirtualDevice {
  index: number;
  token: string;
  routes: DeviceRoutes;
  short: Dispatcher;
  poll: Dispatcher;
  /** Status-only requests (telemetry, RPC replies, device-side RPC): the lean client. */
  fast: H1Client;
  nextValues: () => Values;
  /** Last client timestamp used, so timestamped telemetry never repeats a ts for this device. */
  lastTs: number;
  /** Highest attribute-change sequence number pushed to this device (-1: none yet). */
  lastSeq: number;
  /** Polls not yet on the wire; at 0 the device is online and may be driven. */
  pollsToOpen: number;
  /** Aborted when the run stops: ends this device's polls and sleeps. One per device, so that
   * adding and removing listeners stays cheap (a shared signal would hold thousands). */
  signal: AbortSignal;
  stop(): void;
}

export function createDevice(
  index: number,
  token: string,
  templates: DeviceTemplates,
  basePath: string,
  pools: { short: Dispatcher; poll: Dispatcher; fast: H1Client },
  scenario: Scenario,
  seed: number,
): VirtualDevice {
  const abort = new AbortController();
  return {
    index,
    token,
    routes: deviceRoutes(templates, basePath, token, scenario.polls.timeoutMs),
    short: pools.short,
    poll: pools.poll,
    fast: pools.fast,
    nextValues: createPayloadSource(scenario.profile, seed, index),
    lastTs: 0,
    lastSeq: -1,
    pollsToOpen: (scenario.polls.attributes ? 1 : 0) + (scenario.polls.rpc ? 1 : 0),
    signal: abort.signal,
    stop: () => abort.abort(),
  };
}

const ERROR_PAUSE_MS = 1000; // after a failed poll, so a broken server is not hammered in a loop

function telemetryBody(device: VirtualDevice, scenario: Scenario): { body: string; points: number } {
  const plan = scenario.telemetry;
  if (plan.model === 'off') return { body: '{}', points: 0 };
  if (plan.form === 'values') {
    const values = device.nextValues();
    return { body: JSON.stringify(values), points: Object.keys(values).length };
  }
  const ts = Math.max(Date.now(), device.lastTs + plan.batch);
  device.lastTs = ts;
  if (plan.form === 'timestamped') {
    const values = device.nextValues();
    return { body: JSON.stringify({ ts, values }), points: Object.keys(values).length };
  }
  const records: { ts: number; values: Values }[] = [];
  let points = 0;
  for (let k = plan.batch - 1; k >= 0; k--) {
    const values = device.nextValues();
    points += Object.keys(values).length;
    records.push({ ts: ts - k, values });
  }
  return { body: JSON.stringify(records), points };
}

/**
 * One telemetry message from `startedAt` (clock.ts ms). In the open model that is the intended
 * send time: measuring from there, not from the actual send, corrects for coordinated omission.
 */
export async function sendTelemetry(device: VirtualDevice, ctx: DeviceContext, startedAt: number, timing: Timing): Promise<void> {
  const { body, points } = telemetryBody(device, ctx.scenario);
  if (await measured(ctx, 'telemetry', startedAt, timing, device.fast.status('POST', device.routes.telemetry, body))) {
    ctx.recorder.count('telemetryPoints', points);
  }
}

/** Run a request and time its outcome, success or error class; returns whether it succeeded. */
async function measured(ctx: DeviceContext, path: PathName, startedAt: number, timing: Timing, request: Promise<number>): Promise<boolean> {
  try {
    const status = await ctx.track(request);
    const ok = status >= 200 && status < 300;
    ctx.recorder.record(path, ok ? 'ok' : `status ${status}`, startedAt, timing);
    return ok;
  } catch (error) {
    // An abort is the run stopping: the request was cut short, not answered.
    if (!isAbort(error)) ctx.recorder.record(path, classifyError(error), startedAt, timing);
  }
  return false;
}

/** Closed model: send, wait the interval (from the send's start), repeat. */
export async function telemetryLoop(device: VirtualDevice, ctx: DeviceContext, intervalMs: number, firstDelayMs: number): Promise<void> {
  if (!(await pause(firstDelayMs, device.signal))) return;
  while (!device.signal.aborted) {
    const startedAt = monoNow();
    await sendTelemetry(device, ctx, startedAt, 'sent');
    const wait = startedAt + intervalMs - monoNow();
    if (!(await pause(Math.max(0, wait), device.signal))) return;
  }
}

/** Resolves false when the run stopped during the pause. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** A poll of this device is on the wire; once all are, the device is online. */
function pollOpened(device: VirtualDevice, ctx: DeviceContext): void {
  if (--device.pollsToOpen === 0) ctx.recorder.online(device.index);
}

/**
 * Long-poll once; returns the 200 body, null on 408/504 (re-poll), undefined after an error.
 * A failed poll counts as an error of its path, untimed: its duration is no delivery latency.
 */
async function pollOnce(device: VirtualDevice, ctx: DeviceContext, path: string, errorPath: PathName, first: boolean): Promise<string | null | undefined> {
  try {
    const reply = first
      ? await sendNotifying(device.poll, path, device.signal, () => pollOpened(device, ctx))
      : await send(device.poll, 'GET', path, undefined, device.signal);
    if (reply.status === 200) return reply.body;
    if (reply.status === 408 || reply.status === 504) {
      ctx.recorder.count('pollTimeouts');
      return null;
    }
    ctx.recorder.record(errorPath, `status ${reply.status}`, monoNow(), 'untimed');
  } catch (error) {
    if (device.signal.aborted || isAbort(error)) return undefined;
    ctx.recorder.record(errorPath, classifyError(error), monoNow(), 'untimed');
  }
  await pause(ERROR_PAUSE_MS, device.signal);
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Holds the attribute-updates poll. A push is timed from the driver's send time; a gap in the
 * per-device sequence numbers is changes written while no poll was open (ThingsBoard drops those
 * too), counted as `attributeLost`.
 */
export async function attributeLoop(device: VirtualDevice, ctx: DeviceContext): Promise<void> {
  for (let first = true; !device.signal.aborted; first = false) {
    const body = await pollOnce(device, ctx, device.routes.attributeUpdates, 'attributePush', first);
    if (typeof body !== 'string') continue;
    ctx.recorder.count('attributePolls');
    const update = parseObject(body);
    const sentAt = update?.[PUSH_SENT_AT];
    const seq = update?.[PUSH_SEQ];
    if (typeof sentAt !== 'number' || typeof seq !== 'number') {
      ctx.recorder.record('attributePush', 'other', monoNow(), 'untimed');
      continue;
    }
    ctx.recorder.count('updatesDelivered');
    if (seq > device.lastSeq + 1) ctx.recorder.count('attributeLost', seq - device.lastSeq - 1);
    device.lastSeq = Math.max(device.lastSeq, seq);
    ctx.recorder.record('attributePush', 'ok', sentAt, 'sent');
  }
}

/** Holds the RPC poll; a command is timed from the driver's send time, then answered with its seq. */
export async function rpcLoop(device: VirtualDevice, ctx: DeviceContext): Promise<void> {
  for (let first = true; !device.signal.aborted; first = false) {
    const body = await pollOnce(device, ctx, device.routes.rpcPoll, 'rpcDelivery', first);
    if (typeof body !== 'string') continue;
    ctx.recorder.count('rpcPolls');
    const command = parseObject(body);
    // The specification allows the id to be carried as a string.
    const id = typeof command?.id === 'number' || typeof command?.id === 'string' ? Number(command.id) : NaN;
    if (!command || !Number.isInteger(id) || id < 0) {
      ctx.recorder.record('rpcDelivery', 'other', monoNow(), 'untimed');
      continue;
    }
    ctx.recorder.count('rpcDelivered');
    const params = command.params as { sentAt?: unknown; seq?: unknown } | undefined;
    const sentAt = typeof params?.sentAt === 'number' ? params.sentAt : undefined;
    ctx.recorder.record('rpcDelivery', sentAt === undefined ? 'other' : 'ok', sentAt ?? monoNow(), sentAt === undefined ? 'untimed' : 'sent');
    const reply = `{"result":"ok","method":${JSON.stringify(command.method ?? null)},"seq":${typeof params?.seq === 'number' ? params.seq : null},"device":${device.index}}`;
    const path = device.routes.rpcReplyHead + id + device.routes.rpcReplyTail;
    if (await measured(ctx, 'rpcReply', monoNow(), 'sent', device.fast.status('POST', path, reply))) ctx.recorder.count('rpcReplied');
  }
}

export async function clientRpcLoop(device: VirtualDevice, ctx: DeviceContext, firstDelayMs: number): Promise<void> {
  const plan = ctx.scenario.clientRpc;
  if (!plan) return;
  const body = JSON.stringify({ method: plan.method, params: {} } satisfies Body<'postClientRpc'>);
  if (!(await pause(firstDelayMs, device.signal))) return;
  while (!device.signal.aborted) {
    const startedAt = monoNow();
    await measured(ctx, 'clientRpc', startedAt, 'sent', device.fast.status('POST', device.routes.clientRpc, body));
    if (!(await pause(Math.max(0, startedAt + plan.intervalMs - monoNow()), device.signal))) return;
  }
}

/** The firmware's checksum as the server announces it in the shared attributes (operation 3). */
async function announcedChecksum(device: VirtualDevice): Promise<{ algorithm: ChecksumAlgorithm; value: string } | undefined> {
  const reply = await send(device.short, 'GET', `${device.routes.attributes}?sharedKeys=fw_checksum,fw_checksum_algorithm`, undefined, device.signal);
  const shared = reply.status === 200 ? (parseObject(reply.body)?.shared as Record<string, unknown> | undefined) : undefined;
  const algorithm = shared?.fw_checksum_algorithm;
  const value = shared?.fw_checksum;
  if (typeof value !== 'string' || !(CHECKSUM_ALGORITHMS as readonly unknown[]).includes(algorithm)) return undefined;
  return { algorithm: algorithm as ChecksumAlgorithm, value: value.toLowerCase() };
}

/**
 * Download the assigned firmware once, whole or chunk by chunk until the empty chunk past the
 * end, and check the bytes against `fw_checksum`: a download that does not match (or that the
 * server gives no checksum for) is a `checksum` error, not a success.
 */
export async function downloadFirmware(device: VirtualDevice, ctx: DeviceContext): Promise<void> {
  const plan = ctx.scenario.firmware;
  if (!plan) return;
  const query = `?title=${encodeURIComponent(plan.title)}&version=${encodeURIComponent(plan.version)}&size=${plan.chunkSize}`;
  const startedAt = monoNow();
  const parts: Buffer[] = [];
  try {
    const expected = await ctx.track(announcedChecksum(device));
    for (let chunk = 0; !device.signal.aborted; chunk++) {
      const reply = await ctx.track(sendForBytes(device.short, `${device.routes.firmware}${query}&chunk=${chunk}`, device.signal));
      if (reply.status !== 200) {
        ctx.recorder.record('firmware', `status ${reply.status}`, startedAt, 'sent');
        return;
      }
      parts.push(reply.bytes);
      if (plan.chunkSize === 0 || reply.bytes.length === 0) {
        const matches = expected !== undefined && checksum(expected.algorithm, Buffer.concat(parts)) === expected.value;
        ctx.recorder.record('firmware', matches ? 'ok' : 'checksum', startedAt, 'sent');
        return;
      }
    }
  } catch (error) {
    if (!isAbort(error)) ctx.recorder.record('firmware', classifyError(error), startedAt, 'sent');
  }
}
