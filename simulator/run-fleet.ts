// Running a fleet that exists: device groups (in this process or in workers) and the driver, for
// the requested duration, then an orderly stop. The warm-up ends when every device is online (or
// after --warmup); from a moment announced a little ahead, so that every process hears of it in
// time, requests count in the steady state. The steady window ends when the last part of the
// simulator stopped starting requests: rates divide by that one window.
import { monoNow } from './clock.js';
import type { Control } from './control.js';
import { startDriver, type Driver } from './driver.js';
import { planSourceAddresses, pollsPerDevice, shortConnections, SimulationError, type EngineEvent, type SimulationConfig, type SimulationResult } from './engine.js';
import type { FleetMember } from './fleet.js';
import { startGroup, type GroupConfig } from './group.js';
import { createAggregate, createRecorder, type MetricsDelta, type Recorder } from './metrics.js';
import type { DeviceTemplates } from './routes.js';
import { spawnWorker, type WorkerHandle } from './worker.js';

const MAX_IN_FLIGHT = 5000;
/** How far ahead the start of the steady state is announced (IPC to the workers takes a moment). */
const STEADY_LEAD_MS = 250;

function groupConfigs(config: SimulationConfig, members: FleetMember[], templates: DeviceTemplates): { configs: GroupConfig[]; sourceAddresses: string[] } {
  const { scenario } = config;
  const groups = Math.max(1, config.workers);
  const totalConnections = members.length * pollsPerDevice(scenario) + groups * shortConnections(members.length / groups);
  const sourceAddresses = planSourceAddresses(config.target, groups, totalConnections);
  const configs: GroupConfig[] = [];
  for (let g = 0; g < groups; g++) {
    const devices = members.filter((m) => m.index % groups === g);
    configs.push({
      templates,
      scenario,
      devices,
      seed: config.seed,
      rampPerSecond: config.rampPerSecond,
      telemetryRate: scenario.telemetry.model === 'open' ? (scenario.telemetry.rate * devices.length) / members.length : 0,
      maxInFlight: MAX_IN_FLIGHT,
      target: {
        url: config.target,
        connections: shortConnections(devices.length),
        pollConnections: devices.length * pollsPerDevice(scenario),
        localAddresses: sourceAddresses.length ? [sourceAddresses[g]] : [],
        pollTimeoutMs: scenario.polls.timeoutMs,
        requestTimeoutMs: 60_000,
        insecure: config.insecure,
      },
    });
  }
  return { configs, sourceAddresses };
}

export async function runFleet(
  config: SimulationConfig,
  members: FleetMember[],
  templates: DeviceTemplates,
  control: Control | undefined,
  emit: (event: EngineEvent) => void,
  interrupt: AbortSignal | undefined,
): Promise<Omit<SimulationResult, 'fleet'>> {
  const { scenario } = config;
  const { configs, sourceAddresses } = groupConfigs(config, members, templates);
  const idOf = members.map((m) => m.id);
  const aggregate = createAggregate();
  const workerRss = new Map<number, number>();
  let maxRss = 0;
  let t0 = monoNow();
  let steadyAt = Infinity;
  const second = () => Math.max(0, Math.floor((monoNow() - t0) / 1000));
  let driver: Driver | undefined;
  let running = false;
  /** Control ids of the devices online so far (workers start theirs before the driver exists). */
  const onlineIds: string[] = [];
  const checkSteady = () => {
    const online = aggregate.counters.devicesOnline ?? 0;
    if (running && steadyAt === Infinity && online >= members.length) {
      beginSteadyState(monoNow() + STEADY_LEAD_MS);
      emit({ type: 'phase', phase: 'steady', message: `all ${online} devices online after ${Math.round((steadyAt - t0) / 100) / 10}s: the steady state begins` });
    }
  };
  const absorb = (delta: MetricsDelta) => {
    aggregate.absorb(delta, second());
    emit({ type: 'measured', delta });
    const ids = delta.online.flatMap((index) => (idOf[index] ? [idOf[index]] : []));
    onlineIds.push(...ids);
    if (ids.length) driver?.online(ids);
    checkSteady();
  };
  const local = createRecorder();
  const driverRecorder = createRecorder();
  let failure: string | undefined;
  const workers: WorkerHandle[] = configs.slice(0, config.workers).map((gc, g) =>
    spawnWorker(
      gc,
      (delta, rss) => {
        absorb(delta);
        workerRss.set(g, rss);
      },
      (message) => (failure ??= message),
    ),
  );
  const recorders: Recorder[] = [local, driverRecorder];
  const beginSteadyState = (at: number) => {
    steadyAt = at;
    for (const r of recorders) r.steadyFrom(at);
    for (const w of workers) w.steadyFrom(at);
  };
  let tick: NodeJS.Timeout | undefined;
  try {
    // The clock starts once every worker has loaded, so a run's seconds are all load.
    await Promise.all(workers.map((w) => w.ready));
    if (failure) throw new SimulationError(`a simulator worker failed to start: ${failure}`);
    const warmup = config.warmupMs === null ? 'until every device is online' : `${config.warmupMs / 1000}s`;
    emit({ type: 'phase', phase: 'running', message: `${members.length} devices, scenario ${scenario.name}, ${config.durationMs / 1000}s (warm-up ${warmup})` });
    const startedAt = new Date();
    t0 = monoNow();
    const cpuStart = process.cpuUsage();
    if (config.warmupMs !== null) beginSteadyState(t0 + config.warmupMs);
    running = true;
    // The driver before the devices: it must hear of every device that comes online.
    driver = control ? startDriver(control, { scenario, maxInFlight: MAX_IN_FLIGHT }, driverRecorder) : undefined;
    driver?.online(onlineIds);
    checkSteady();
    const inProcess = config.workers === 0 ? startGroup(configs[0], local, () => absorb(local.drain())) : undefined;

    const sampleRss = () => {
      let rss = process.memoryUsage.rss();
      for (const r of workerRss.values()) rss += r;
      maxRss = Math.max(maxRss, rss);
    };
    tick = setInterval(() => {
      absorb(local.drain());
      absorb(driverRecorder.drain());
      sampleRss();
      const now = second();
      emit({ type: 'tick', second: now, online: aggregate.counters.devicesOnline ?? 0, devices: members.length, phase: monoNow() >= steadyAt ? 'steady' : 'warmup', paths: aggregate.interval(now) });
    }, 1000);

    // Run for the duration, or until a worker fails or the user interrupts.
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(end);
        clearInterval(watch);
        resolve();
      };
      const end = setTimeout(done, config.durationMs);
      const watch = setInterval(() => (failure || interrupt?.aborted) && done(), 100);
    });
    emit({ type: 'phase', phase: 'stopping', message: 'waiting for calls in flight' });
    // The driver first: its RPCs need the devices' polls to come back.
    const stops: number[] = [monoNow()];
    if (driver) stops.push(await driver.stop());
    if (inProcess) stops.push(await inProcess.stop());
    const stopped = await Promise.allSettled(workers.map((w) => w.stop()));
    if (failure) throw new SimulationError(`a simulator worker failed: ${failure}`);
    let workerCpu = 0;
    for (const r of stopped) {
      if (r.status !== 'fulfilled') continue;
      workerCpu += r.value.cpuMicros;
      stops.push(r.value.stoppedAt);
    }
    absorb(local.drain());
    absorb(driverRecorder.drain());
    sampleRss();
    const cpu = process.cpuUsage(cpuStart);
    const runMs = Math.max(...stops) - t0;
    const steadyReached = steadyAt - t0 < runMs;
    if (!steadyReached) emit({ type: 'warning', message: `the steady state never began (${aggregate.counters.devicesOnline ?? 0}/${members.length} devices online): every figure is warm-up` });
    return {
      config,
      startedAt: startedAt.toISOString(),
      runMs,
      warmupMs: steadyReached ? steadyAt - t0 : runMs,
      steadyReached,
      interrupted: Boolean(interrupt?.aborted),
      aggregate,
      simulator: { processes: 1 + workers.length, cpuMicros: cpu.user + cpu.system + workerCpu, maxRssBytes: maxRss, sourceAddresses },
    };
  } finally {
    clearInterval(tick);
    for (const w of workers) w.kill();
  }
}
