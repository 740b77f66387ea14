// A group of virtual devices in one process (the engine's own, or a worker's): its pools, the
// ramp that brings devices online, the open-model arrival scheduler and an orderly stop.
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
  /** Stop: no new work, polls and sleeps aborted, in-flight writes awaited, pools closed. */
  stop(): Promise<void>;
}

const SCHEDULER_TICK_MS = 5;

export function startGroup(config: GroupConfig, recorder: Recorder): Group {
  const target = createTarget(config.target);
  let stopping = false;
  const { scenario } = config;
  const inFlight = createInFlight();
  const ctx: DeviceContext = { scenario, recorder, track: inFlight.track };
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
      { short: target.shortPool(fleetDevice.index), poll: target.pollPool(fleetDevice.index) },
      scenario,
      config.seed,
    );
    online.push(device);
    recorder.count('devicesOnline');
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

  let scheduler: NodeJS.Timeout | undefined;
  if (scenario.telemetry.model === 'open' && config.telemetryRate > 0) {
    const started = performance.now();
    const perMs = config.telemetryRate / 1000;
    let issued = 0;
    let next = 0;
    const openSends = createInFlight();
    scheduler = setInterval(() => {
      const due = Math.floor((performance.now() - started) * perMs);
      for (; issued < due; issued++) {
        const intendedAt = started + issued / perMs;
        if (!online.length) continue; // nobody online yet: the arrival is not counted
        if (openSends.count >= config.maxInFlight) {
          recorder.count('dropped');
          continue;
        }
        const device = online[next++ % online.length];
        void openSends.track(sendTelemetry(device, ctx, intendedAt));
      }
    }, SCHEDULER_TICK_MS);
  }

  return {
    async stop() {
      for (const t of timers) clearTimeout(t);
      if (scheduler) clearInterval(scheduler);
      stopping = true;
      for (const device of online) device.stop();
      await Promise.allSettled(loops);
      await inFlight.idle();
      await target.close();
    },
  };
}
