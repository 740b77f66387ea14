// A virtual device: its own token, paths, payload state and loops. It sends telemetry, holds the
// attribute-updates poll and the RPC poll (re-polling on 408/504), replies to every RPC, calls
// device-side RPC and downloads firmware when the scenario asks for them.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { classifyError, isAbort, nowEpochMs, send, sendForStatus } from './http.js';
import type { PathName, Recorder } from './metrics.js';
import { createPayloadSource, type Values } from './profiles.js';
import { deviceRoutes, type DeviceRoutes, type DeviceTemplates } from './routes.js';
import type { Scenario } from './scenario.js';

/** Keys the driver writes as shared attributes; the device measures push latency from them. */
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
  nextValues: () => Values;
  /** Last client timestamp used, so timestamped telemetry never repeats a ts for this device. */
  lastTs: number;
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
  pools: { short: Dispatcher; poll: Dispatcher },
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
    nextValues: createPayloadSource(scenario.profile, seed, index),
    lastTs: 0,
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
 * One telemetry message. `intendedAt` (performance.now() ms) is when the open model meant to send
 * it: measuring from there, not from the actual send, corrects for coordinated omission.
 */
export async function sendTelemetry(device: VirtualDevice, ctx: DeviceContext, intendedAt: number): Promise<void> {
  const { body, points } = telemetryBody(device, ctx.scenario);
  if (await measured(ctx, 'telemetry', intendedAt, sendForStatus(device.short, 'POST', device.routes.telemetry, body))) {
    ctx.recorder.count('telemetryPoints', points);
  }
}

/** Run a request, record its latency or its error class; returns whether it succeeded. */
async function measured(ctx: DeviceContext, path: PathName, startedAt: number, request: Promise<number>): Promise<boolean> {
  try {
    const status = await ctx.track(request);
    if (status >= 200 && status < 300) {
      ctx.recorder.ok(path, (performance.now() - startedAt) * 1000);
      return true;
    }
    ctx.recorder.fail(path, `status ${status}`);
  } catch (error) {
    if (!isAbort(error)) ctx.recorder.fail(path, classifyError(error));
  }
  return false;
}

/** Closed model: send, wait the interval (from the send's start), repeat. */
export async function telemetryLoop(device: VirtualDevice, ctx: DeviceContext, intervalMs: number, firstDelayMs: number): Promise<void> {
  if (!(await pause(firstDelayMs, device.signal))) return;
  while (!device.signal.aborted) {
    const startedAt = performance.now();
    await sendTelemetry(device, ctx, startedAt);
    const wait = startedAt + intervalMs - performance.now();
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

/** Long-poll once; returns the 200 body, null on 408/504 (re-poll), undefined after an error. */
async function pollOnce(device: VirtualDevice, ctx: DeviceContext, path: string, errorPath: PathName): Promise<string | null | undefined> {
  try {
    const reply = await send(device.poll, 'GET', path, undefined, device.signal);
    if (reply.status === 200) return reply.body;
    if (reply.status === 408 || reply.status === 504) {
      ctx.recorder.count('pollTimeouts');
      return null;
    }
    ctx.recorder.fail(errorPath, `status ${reply.status}`);
  } catch (error) {
    if (device.signal.aborted || isAbort(error)) return undefined;
    ctx.recorder.fail(errorPath, classifyError(error));
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

export async function attributeLoop(device: VirtualDevice, ctx: DeviceContext): Promise<void> {
  while (!device.signal.aborted) {
    const body = await pollOnce(device, ctx, device.routes.attributeUpdates, 'attributePush');
    if (typeof body !== 'string') continue;
    ctx.recorder.count('attributePolls');
    const update = parseObject(body);
    if (!update) {
      ctx.recorder.fail('attributePush', 'other');
      continue;
    }
    ctx.recorder.count('updatesDelivered');
    const sentAt = update[PUSH_SENT_AT];
    if (typeof sentAt === 'number') ctx.recorder.ok('attributePush', (nowEpochMs() - sentAt) * 1000);
  }
}

export async function rpcLoop(device: VirtualDevice, ctx: DeviceContext): Promise<void> {
  while (!device.signal.aborted) {
    const body = await pollOnce(device, ctx, device.routes.rpcPoll, 'rpcDelivery');
    if (typeof body !== 'string') continue;
    ctx.recorder.count('rpcPolls');
    const command = parseObject(body);
    // The specification allows the id to be carried as a string.
    const id = typeof command?.id === 'number' || typeof command?.id === 'string' ? Number(command.id) : NaN;
    if (!command || !Number.isInteger(id) || id < 0) {
      ctx.recorder.fail('rpcDelivery', 'other');
      continue;
    }
    ctx.recorder.count('rpcDelivered');
    const params = command.params as { sentAt?: unknown; seq?: unknown } | undefined;
    if (typeof params?.sentAt === 'number') ctx.recorder.ok('rpcDelivery', (nowEpochMs() - params.sentAt) * 1000);
    const reply = JSON.stringify({ result: 'ok', method: command.method, seq: params?.seq ?? null, device: device.index });
    const path = device.routes.rpcReplyHead + id + device.routes.rpcReplyTail;
    if (await measured(ctx, 'rpcReply', performance.now(), sendForStatus(device.short, 'POST', path, reply))) ctx.recorder.count('rpcReplied');
  }
}

export async function clientRpcLoop(device: VirtualDevice, ctx: DeviceContext, firstDelayMs: number): Promise<void> {
  const plan = ctx.scenario.clientRpc;
  if (!plan) return;
  const body = JSON.stringify({ method: plan.method, params: {} });
  if (!(await pause(firstDelayMs, device.signal))) return;
  while (!device.signal.aborted) {
    const startedAt = performance.now();
    await measured(ctx, 'clientRpc', startedAt, sendForStatus(device.short, 'POST', device.routes.clientRpc, body, device.signal));
    if (!(await pause(Math.max(0, startedAt + plan.intervalMs - performance.now()), device.signal))) return;
  }
}

/** Download the assigned firmware once, whole or chunk by chunk until the empty chunk past the end. */
export async function downloadFirmware(device: VirtualDevice, ctx: DeviceContext): Promise<void> {
  const plan = ctx.scenario.firmware;
  if (!plan) return;
  const query = `?title=${encodeURIComponent(plan.title)}&version=${encodeURIComponent(plan.version)}&size=${plan.chunkSize}`;
  const startedAt = performance.now();
  for (let chunk = 0; !device.signal.aborted; chunk++) {
    try {
      const reply = await ctx.track(send(device.short, 'GET', `${device.routes.firmware}${query}&chunk=${chunk}`, undefined, device.signal));
      if (reply.status !== 200) {
        ctx.recorder.fail('firmware', `status ${reply.status}`);
        return;
      }
      if (plan.chunkSize === 0 || reply.body.length === 0) {
        ctx.recorder.ok('firmware', (performance.now() - startedAt) * 1000);
        return;
      }
    } catch (error) {
      if (!isAbort(error)) ctx.recorder.fail('firmware', classifyError(error));
      return;
    }
  }
}
