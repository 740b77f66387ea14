// A group of virtual devices in one process (the engine's own, or a worker's): its wire (a link
// per device), its pacer (every planned send of the group), the ramp that brings devices online,
// the open-model arrivals, and a stop in two steps: drain (issue nothing new, let what is in
// flight finish while polls go on), then end (polls cut, whatever is still open counted).
import { startArrivals, type Arrivals } from './arrivals.js';
import { monoNow } from './clock.js';
import { clientRpcTurn, connectionOpened, createDevice, pollAttributes, pollRpc, sendTelemetry, telemetryTurn, type DeviceContext, type VirtualDevice } from './device.js';
import { downloadFirmware } from './firmware-download.js';
import { collectGarbage } from '../cli/garbage.js';
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

/**
 * How long a fleet brought online all at once waits for every device's polls to be on the wire
 * before its load starts anyway (a target that leaves connections hanging; a refused poll counts as
 * settled at once).
 */
const READY_WAIT_MS = 2_000;
/**
 * A device whose first request falls this soon after the load's start connects before it, so that
 * the load's first moments are not spent connecting; later ones connect at their first request.
 * With READY_WAIT_MS, within the time a connection that has had no answer may stay idle (response-parser.ts IDLE_LIMIT_MS).
 */
const AHEAD_MS = 2_000;
/**
 * Connects made ahead at once, at most: a burst beyond the target's accept backlog (Tomcat's 100,
 * Node's 511) would have its dropped SYNs sent again only after a second.
 */
const AHEAD_CONNECTS = 64;

/** When a device's loops first turn, from the start of its load (ms; Infinity: no such loop). */
interface FirstTurns {
  telemetry: number;
  clientRpc: number;
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
   * that RPCs in flight still reach their devices). Ask again after the driver has drained: the
   * replies to its last RPCs are requests begun after the first drain may have resolved.
   */
  drain(): Promise<void>;
  /** End: polls cut, whatever is still open ends as `unfinished` (timed at its age), connections closed. */
  end(): void;
  /** Connections open at most at once, and opened in all. */
  connections(): { peak: number; opened: number };
}

/**
 * `onAllOnline`: every device of the group is online, its polls on the wire (the engine may end the
 * warm-up); a fleet brought online all at once starts its load then. `pacer`: the process's, when the driver runs in this process too.
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
  let draining: Promise<void> | undefined;
  const ctx: DeviceContext = {
    scenario,
    recorder: {
      ...recorder,
      online(index) {
        recorder.online(index);
        if (++onlineCount === config.devices.length) allOnline();
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
  /** The load has started (a fleet brought online all at once starts it once). */
  let loading = false;

  /** Devices to connect ahead of their first request, the next one's place, and connects under way. */
  const toConnect: VirtualDevice[] = [];
  let nextAhead = 0;
  let connecting = 0;
  let pumping = false;
  const connectAhead = (device: VirtualDevice) => {
    toConnect.push(device);
    pump();
  };
  const pump = () => {
    if (pumping) return; // a connect settled at once (no budget left): the loop below goes on
    pumping = true;
    while (connecting < AHEAD_CONNECTS && nextAhead < toConnect.length) {
      const device = toConnect[nextAhead++];
      connecting++;
      device.link.connect(() => {
        connecting--;
        connectionOpened(device);
        pump();
      });
    }
    pumping = false;
  };
  /** When each device's loops first turn, from the start of its load (ms), in the order of `online`. */
  const firstTurns: FirstTurns[] = [];

  /**
   * A device comes into being and opens its polls; `ahead`: also a connection for its first request,
   * when that falls within AHEAD_MS of the load's start (a device with polls gets none: its first
   * poll takes that connection, or the link already has the polls'; see simulator/README.md for
   * why that stays). It is online once they are open.
   */
  const bringOnline = (fleetDevice: FleetDevice, ahead: boolean): VirtualDevice | undefined => {
    if (!ctx.issuing) return undefined;
    const device = createDevice(fleetDevice.index, fleetDevice.token, config.templates, basePath, wire.link(), ctx, config.seed);
    // Spread the first sends over one interval so the fleet does not fire in lockstep.
    const first = {
      telemetry: scenario.telemetry.model === 'closed' ? random() * scenario.telemetry.intervalMs : Infinity,
      clientRpc: scenario.clientRpc ? random() * scenario.clientRpc.intervalMs : Infinity,
    };
    online.push(device);
    firstTurns.push(first);
    // The open-model arrivals go to the devices in turn, the first to the first device.
    const firstArrival = scenario.telemetry.model === 'open' && config.telemetryRate > 0 ? (online.length * 1000) / config.telemetryRate : Infinity;
    const connect = ahead && Math.min(first.telemetry, first.clientRpc, firstArrival) < AHEAD_MS;
    if (connect) device.toOpen++;
    // A device with nothing to open is online at once; another once all is open.
    if (device.toOpen === 0) ctx.recorder.online(device.index);
    if (connect) connectAhead(device);
    if (scenario.polls.attributes) pollAttributes(device, true);
    if (scenario.polls.rpc) pollRpc(device, true);
    return device;
  };
  /** The load of the device at `at` in `online`, from `now`: its loops' first turns, its download, and the open-model arrivals with the first device. */
  const startLoad = (at: number, now: number) => {
    const device = online[at];
    const first = firstTurns[at];
    if (scenario.telemetry.model === 'closed') pacer.at(now + first.telemetry, telemetryTurn, device);
    if (scenario.clientRpc) pacer.at(now + first.clientRpc, clientRpcTurn, device);
    if (scenario.firmware) void downloadFirmware(device);
    // Open-model telemetry starts with the first device: no arrival falls into a fleet of nobody.
    if (!arrivals && scenario.telemetry.model === 'open' && config.telemetryRate > 0) {
      let next = 0;
      arrivals = startArrivals(pacer, { rate: config.telemetryRate, startAt: now, send: (intendedAt) => sendTelemetry(online[next++ % online.length], intendedAt) });
    }
  };
  /**
   * A fleet brought online all at once starts its load when every device is online (or after
   * READY_WAIT_MS), after a full garbage collection: the turns it takes to create the devices and
   * open their connections (1,000 mixed devices: ~240 ms), and the first collection of what they
   * keep, are then behind the load's clock, not in its first planned sends. `heard` tells the
   * engine before the clock starts, so that what it does then (a report line, the driver's start)
   * is not in the load's time either. What the set-up made and keeps (devices, thousands of
   * sockets) moves to the old generation then, instead of being copied by the first minor
   * collections of the load (pauses of ~10 ms at 1,000 mixed devices, in the first planned sends).
   */
  const startFleet = (heard: () => void) => {
    if (loading || !ctx.issuing) return heard();
    loading = true;
    collectGarbage();
    heard();
    const now = monoNow();
    for (let at = 0; at < online.length; at++) startLoad(at, now);
  };
  const allOnline = () => (config.rampPerSecond === null ? startFleet(onAllOnline) : onAllOnline());

  const t0 = monoNow();
  if (config.rampPerSecond === null) {
    for (const d of config.devices) bringOnline(d, true);
    if (!loading) pacer.at(monoNow() + READY_WAIT_MS, startFleet, () => {});
  } else {
    // A ramp brings one device at a time, each turn short: its load starts with it, its connections with its first requests.
    const join = (d: FleetDevice) => {
      if (bringOnline(d, false)) startLoad(online.length - 1, monoNow());
    };
    for (const d of config.devices) pacer.at(t0 + (d.index * 1000) / config.rampPerSecond, join, d);
  }

  return {
    drain() {
      ctx.issuing = false;
      // Planned turns and ramp steps see `issuing` and do nothing; a poll's retry after an error still runs.
      arrivals?.stop();
      if (ctx.inFlight === 0) return Promise.resolve();
      // Asked again while waiting: the same wait.
      return (draining ??= new Promise((resolve) => {
        drained = () => {
          drained = draining = undefined;
          resolve();
        };
      }));
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
