// A group of virtual devices in one process (the engine's own, or a worker's): its wire (a link
// per device), its pacer (every planned send of the group), the ramp that brings devices online,
// the open-model arrivals, and a stop in two steps: drain (issue nothing new, let what is in
// flight finish while polls go on), then end (polls cut, whatever is still open counted).
import { startArrivals, type Arrivals } from './arrivals.js';
import { monoNow } from './clock.js';
import { clientRpcTurn, createDevice, pollAttributes, pollRpc, sendTelemetry, telemetryTurn, type DeviceContext, type VirtualDevice } from './device.js';
import { downloadFirmware } from './firmware-download.js';
import type { Recorder } from './metrics.js';
import { createPacer, type Pacer } from './pacer.js';
import { createRandom } from './profiles.js';
import type { DeviceTemplates } from './routes.js';
import type { Scenario } from './scenario.js';
import { createWire } from './wire.js';

export interface FleetDevice {
  /** Position in the whole fleet (0-based): seeds its data and its place in the ramp. */
  index: number;
  token: string;
}

/** Where and how the group's devices connect. */
export interface GroupTarget {
  /** Base URL; its path (if any) prefixes every request path. */
  url: string;
  /** Source address (127.0.0.x for big fleets on loopback); none: the system's choice. */
  localAddress?: string;
  insecure: boolean;
  maxConnectionsPerDevice: number;
  /** Connections the group may hold at once (its share of the process's descriptors). */
  maxConnections: number;
  requestTimeoutMs: number;
}

/** Everything a group needs; plain data, so a worker receives it over IPC. */
export interface GroupConfig {
  templates: DeviceTemplates;
  target: GroupTarget;
  scenario: Scenario;
  devices: FleetDevice[];
  seed: number;
  /** Devices joining per second (fleet-wide); null: all at once. */
  rampPerSecond: number | null;
  /** This group's share of the open-model telemetry rate (messages/s). */
  telemetryRate: number;
}

export interface Group {
  /**
   * Issue nothing new; resolves once every measured request in flight has ended (polls go on, so
   * that RPCs in flight still reach their devices). `stoppedAt` (clock.ts ms) is when issuing stopped.
   */
  drain(): Promise<{ stoppedAt: number }>;
  /** End: polls cut, whatever is still open ends as `unfinished` (timed at its age), connections closed. */
  end(): void;
  /** Connections open at most at once, and opened in all. */
  connections(): { peak: number; opened: number };
}

/**
 * `onAllOnline`: every device of the group has its polls on the wire (the engine may end the
 * warm-up). `pacer`: the process's, when the driver runs in this process too.
 */
export function startGroup(config: GroupConfig, recorder: Recorder, onAllOnline: () => void = () => {}, pacer: Pacer = createPacer()): Group {
  const { scenario } = config;
  const url = new URL(config.target.url);
  const wire = createWire({
    url: config.target.url,
    localAddress: config.target.localAddress,
    insecure: config.target.insecure,
    maxConnectionsPerLink: config.target.maxConnectionsPerDevice,
    maxConnections: config.target.maxConnections,
    woke: (now) => pacer.realign(now),
  });
  let onlineCount = 0;
  let drained: (() => void) | undefined;
  const ctx: DeviceContext = {
    scenario,
    recorder: {
      ...recorder,
      online(index) {
        recorder.online(index);
        if (++onlineCount === config.devices.length) onAllOnline();
      },
    },
    pacer,
    host: url.host,
    requestTimeoutMs: config.target.requestTimeoutMs,
    inFlight: 0,
    issuing: true,
    ending: false,
    settled() {
      if (ctx.inFlight === 0) drained?.();
    },
  };
  const basePath = url.pathname.replace(/\/+$/, '');
  const online: VirtualDevice[] = [];
  const random = createRandom(config.seed ^ 0x5eed);
  let arrivals: Arrivals | undefined;

  const bringOnline = (fleetDevice: FleetDevice) => {
    if (!ctx.issuing) return;
    const device = createDevice(fleetDevice.index, fleetDevice.token, config.templates, basePath, wire.link(), ctx, config.seed);
    online.push(device);
    const now = monoNow();
    // A device without polls is online at once; one with polls when they are on the wire.
    if (device.pollsToOpen === 0) ctx.recorder.online(device.index);
    if (scenario.polls.attributes) pollAttributes(device, true);
    if (scenario.polls.rpc) pollRpc(device, true);
    // Spread the first sends over one interval so the fleet does not fire in lockstep.
    if (scenario.telemetry.model === 'closed') pacer.at(now + random() * scenario.telemetry.intervalMs, telemetryTurn, device);
    if (scenario.clientRpc) pacer.at(now + random() * scenario.clientRpc.intervalMs, clientRpcTurn, device);
    if (scenario.firmware) void downloadFirmware(device);
    // Open-model telemetry starts with the first device: no arrival falls into a fleet of nobody.
    if (!arrivals && scenario.telemetry.model === 'open' && config.telemetryRate > 0) {
      let next = 0;
      arrivals = startArrivals(pacer, { rate: config.telemetryRate, startAt: now, send: (intendedAt) => sendTelemetry(online[next++ % online.length], intendedAt) });
    }
  };

  const t0 = monoNow();
  if (config.rampPerSecond === null) for (const d of config.devices) bringOnline(d);
  else for (const d of config.devices) pacer.at(t0 + (d.index * 1000) / config.rampPerSecond, bringOnline, d);

  return {
    drain() {
      const stoppedAt = monoNow();
      ctx.issuing = false;
      // Planned turns and ramp steps see `issuing` and do nothing; a poll's retry after an error still runs.
      arrivals?.stop();
      if (ctx.inFlight === 0) return Promise.resolve({ stoppedAt });
      return new Promise((resolve) => (drained = () => resolve({ stoppedAt })));
    },
    end() {
      ctx.issuing = false;
      ctx.ending = true;
      pacer.clear();
      wire.destroy('unfinished');
    },
    connections: () => ({ peak: wire.peakOpen, opened: wire.opened }),
  };
}
