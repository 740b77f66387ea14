// A group of virtual devices in one process (the engine's own, or a worker's): its pools, the
// ramp that brings devices online, the open-model arrival scheduler and an orderly stop.
import { createArrivals, type Arrivals } from './arrivals.js';
import { monoNow } from './clock.js';
import type { DeviceTemplates } from './routes.js';
import { createTarget, type TargetOptions } from './http.js';
import { createInFlight } from './in-flight.js';
import {
  attributeLoop,
  clientRpcLoop,
  createDevice,
  downloadFirmware,
  rpcLoop,
  sendTelemetry,
  telemetryLoop,
  type DeviceContext,
  type VirtualDevice,
} from './device.js';
import type { Recorder } from './metrics.js';
import { createRandom } from './profiles.js';
import type { Scenario } from './scenario.js';

export interface FleetDevice {
  /** Position in the whole fleet (0-based): seeds its data and its place in the ramp. */
  index: number;
  token: string;
}

/** Everything a group needs; plain data, so a worker receives it over IPC. */
export interface GroupConfig {
  templates: DeviceTemplates;
  target: TargetOptions;
  scenario: Scenario;
  devices: FleetDevice[];
  seed: number;
  /** Devices joining per second (fleet-wide); null: all at once. */
  rampPerSecond: number | null;
  /** This group's share of the open-model telemetry rate (messages/s). */
  telemetryRate: number;
  /** Cap on open-model sends in flight; beyond it arrivals are counted as dropped. */
  maxInFlight: number;
}

export interface Group {
  /**
   * Stop: no new work, polls and sleeps aborted, in-flight writes awaited, pools closed.
   * Resolves with the moment (clock.ts ms) the group stopped starting requests.
   */
  stop(): Promise<number>;
}

/** The open model's slot length (arrivals.ts); `dhi bench --simulator`'s paced floor uses it too. */
export const SCHEDULER_TICK_MS = 5;

/** `onAllOnline`: every device of the group has its polls on the wire (the engine may end the warm-up). */
export function startGroup(config: GroupConfig, recorder: Recorder, onAllOnline: () => void = () => {}): Group {
  const target = createTarget(config.target);
  let stopping = false;
  const { scenario } = config;
  const inFlight = createInFlight();
  let onlineCount = 0;
  const counting: Recorder = {
    ...recorder,
    online(index) {
      recorder.online(index);
      if (++onlineCount === config.devices.length) onAllOnline();
    },
  };
  const ctx: DeviceContext = { scenario, recorder: counting, track: inFlight.track };
  const online: VirtualDevice[] = [];
  const loops: Promise<void>[] = [];
  const random = createRandom(config.seed ^ 0x5eed);
  const timers: NodeJS.Timeout[] = [];

  const bringOnline = (fleetDevice: FleetDevice) => {
    if (stopping) return;
    const device = createDevice(
      fleetDevice.index,
      fleetDevice.token,
      config.templates,
      target.basePath,
      { short: target.shortPool(fleetDevice.index), poll: target.pollPool(fleetDevice.index), fast: target.statusClient(fleetDevice.index) },
      scenario,
      config.seed,
    );
    online.push(device);
    // A device without polls is online at once; one with polls when they are on the wire.
    if (device.pollsToOpen === 0) counting.online(device.index);
    if (scenario.polls.attributes) loops.push(attributeLoop(device, ctx));
    if (scenario.polls.rpc) loops.push(rpcLoop(device, ctx));
    if (scenario.telemetry.model === 'closed') {
      // Spread the first sends over one interval so the fleet does not fire in lockstep.
      loops.push(telemetryLoop(device, ctx, scenario.telemetry.intervalMs, random() * scenario.telemetry.intervalMs));
    }
    if (scenario.clientRpc) loops.push(clientRpcLoop(device, ctx, random() * scenario.clientRpc.intervalMs));
    if (scenario.firmware) loops.push(downloadFirmware(device, ctx));
  };

  if (config.rampPerSecond === null) for (const d of config.devices) bringOnline(d);
  else {
    for (const d of config.devices) timers.push(setTimeout(bringOnline, (d.index * 1000) / config.rampPerSecond, d));
  }

  // Open-model telemetry: the arrivals start with the first device, so none falls into a fleet of nobody.
  let scheduler: NodeJS.Timeout | undefined;
  if (scenario.telemetry.model === 'open' && config.telemetryRate > 0) {
    let arrivals: Arrivals | undefined;
    let next = 0;
    const sendNext = (intendedAt: number) => sendTelemetry(online[next++ % online.length], ctx, intendedAt, 'intended');
    const drop = (intendedAt: number) => recorder.record('telemetry', 'dropped', intendedAt, 'untimed');
    scheduler = setInterval(() => {
      if (!online.length) return;
      arrivals ??= createArrivals({ rate: config.telemetryRate, startAt: monoNow(), slotMs: SCHEDULER_TICK_MS, maxInFlight: config.maxInFlight, inFlight: createInFlight(), send: sendNext, drop });
      arrivals.tick(monoNow());
    }, SCHEDULER_TICK_MS);
  }

  return {
    async stop() {
      for (const t of timers) clearTimeout(t);
      if (scheduler) clearInterval(scheduler);
      const stoppedAt = monoNow();
      stopping = true;
      for (const device of online) device.stop();
      await Promise.allSettled(loops);
      await inFlight.idle();
      await target.close();
      return stoppedAt;
    },
  };
}
