// Running a fleet that exists: device groups (in this process or in workers) and the driver, for
// the requested duration, then an orderly stop. The warm-up ends when every device is online (or
// after --warmup); from a moment announced a little ahead, so that every process hears of it in
// time, requests count in the steady state. The steady window ends when issuing stops, at the end
// of the duration: rates count the completions inside it. The stop is bounded: issuing stops at the end of the duration,
// what is in flight may finish for at most --request-timeout (polls go on meanwhile, so RPCs in
// flight reach their devices), then everything still open is cut and counted as `unfinished`.
import { monoNow } from './clock.js';
import type { Control } from './control.js';
import { startDriver, type Driver } from './driver.js';
import { connectionsPerDevice, DRIVER_CONNECTIONS, groupBudget, planSourceAddresses } from './capacity.js';
import { SimulationError, type EngineEvent, type SimulationConfig, type SimulationResult } from './simulation.js';
import type { FleetMember } from './fleet.js';
import { startGroup, type GroupConfig } from './group.js';
import { createPacer } from './pacer.js';
import { createAggregate, warmUpMetrics } from './aggregate.js';
import { createRecorder, type MetricsDelta, type Recorder } from './metrics.js';
import type { DeviceTemplates } from './routes.js';
import { spawnWorker, type WorkerHandle } from './worker.js';

/** How far ahead the start of the steady state is announced (IPC to the workers takes a moment). */
const STEADY_LEAD_MS = 250;
/** How long a worker may take to send its last figures once told to end. */
const WORKER_END_GRACE_MS = 5_000;

function groupConfigs(config: SimulationConfig, members: FleetMember[], templates: DeviceTemplates): { configs: GroupConfig[]; sourceAddresses: string[] } {
  const { scenario } = config;
  const groups = Math.max(1, config.workers);
  const budget = groupBudget(config.workers === 0);
  // Sized by the connections the devices hold in the steady state: an explicit source address
  // makes every connect() bind, which costs ~1.5 ms of kernel time once thousands of sockets are
  // bound (capacity.ts), so addresses are used only when the ports would otherwise run out.
  const sourceAddresses = planSourceAddresses(config.target, groups, members.length * connectionsPerDevice(scenario));
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
      target: {
        url: config.target,
        localAddress: sourceAddresses[g],
        insecure: config.insecure,
        maxConnectionsPerDevice: config.maxConnectionsPerDevice,
        maxConnections: budget,
        requestTimeoutMs: config.requestTimeoutMs,
      },
    });
  }
  return { configs, sourceAddresses };
}

/** `work`, or undefined once `ms` have passed, whichever comes first; no timer is left behind. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms), undefined)));
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
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
  /** Ends the run's wait early: a worker failed or the user interrupted (set while the run waits). */
  let stopEarly: () => void = () => {};
  const workers: WorkerHandle[] = configs.slice(0, config.workers).map((gc, g) =>
    spawnWorker(
      gc,
      (delta, rss) => {
        absorb(delta);
        workerRss.set(g, rss);
      },
      (message) => {
        failure ??= message;
        stopEarly();
      },
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
    warmUpMetrics();
    const startedAt = new Date();
    t0 = monoNow();
    const cpuStart = process.cpuUsage();
    if (config.warmupMs !== null) beginSteadyState(t0 + config.warmupMs);
    running = true;
    // The driver before the devices: it must hear of every device that comes online.
    const drives = scenario.driver.rpcRate > 0 || scenario.driver.attrRate > 0;
    // One pacer for the driver and an in-process group: one timer, and each one's I/O re-aims it for both.
    const pacer = config.workers === 0 ? createPacer() : undefined;
    driver = control && drives ? startDriver(control, { scenario, requestTimeoutMs: config.requestTimeoutMs, insecure: config.insecure, maxConnections: DRIVER_CONNECTIONS }, driverRecorder, pacer) : undefined;
    driver?.online(onlineIds);
    checkSteady();
    const inProcess = config.workers === 0 ? startGroup(configs[0], local, () => absorb(local.drain()), pacer) : undefined;

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

    // Run for the duration, or until a worker fails or the user interrupts (no timer polls for either).
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(end);
        interrupt?.removeEventListener('abort', done);
        resolve();
      };
      const end = setTimeout(done, config.durationMs);
      stopEarly = done;
      interrupt?.addEventListener('abort', done);
      if (failure || interrupt?.aborted) done();
    });
    // Stop issuing everywhere; what is in flight may finish until the bound, polls going on meanwhile.
    const loadEnd = monoNow();
    const bound = loadEnd + config.requestTimeoutMs;
    for (const r of recorders) r.windowEnd(loadEnd);
    for (const w of workers) w.windowEnd(loadEnd);
    emit({ type: 'phase', phase: 'stopping', message: `waiting for requests in flight (at most ${config.requestTimeoutMs / 1000}s)` });
    const groupsDrained = () => Promise.allSettled([inProcess?.drain(), ...workers.map((w) => w.drain())]);
    await within(Promise.allSettled([driver?.drain(), groupsDrained()]), bound - monoNow());
    // The driver's last RPCs reach their devices by polls and are answered by requests the groups
    // began after that: the groups' replies end too before anything is cut.
    if (driver) await within(groupsDrained(), bound - monoNow());
    // The driver first: its RPCs needed the devices' polls; then every group cuts what is still open.
    driver?.end();
    inProcess?.end();
    const stopped = await Promise.all(workers.map((w) => within(w.end().catch(() => undefined), WORKER_END_GRACE_MS)));
    const stopMs = monoNow() - loadEnd;
    if (failure) throw new SimulationError(`a simulator worker failed: ${failure}`);
    let workerCpu = 0;
    const connections = inProcess?.connections() ?? { peak: 0, opened: 0 };
    for (const r of stopped) {
      workerCpu += r?.cpuMicros ?? 0;
      connections.peak += r?.connections.peak ?? 0;
      connections.opened += r?.connections.opened ?? 0;
    }
    absorb(local.drain());
    absorb(driverRecorder.drain());
    sampleRss();
    const cpu = process.cpuUsage(cpuStart);
    const runMs = loadEnd - t0;
    const steadyReached = steadyAt - t0 < runMs;
    if (!steadyReached) emit({ type: 'warning', message: `the steady state never began (${aggregate.counters.devicesOnline ?? 0}/${members.length} devices online): every figure is warm-up` });
    return {
      config,
      startedAt: startedAt.toISOString(),
      runMs,
      stopMs,
      warmupMs: steadyReached ? steadyAt - t0 : runMs,
      steadyReached,
      interrupted: Boolean(interrupt?.aborted),
      aggregate,
      simulator: { processes: 1 + workers.length, cpuMicros: cpu.user + cpu.system + workerCpu, maxRssBytes: maxRss, sourceAddresses, peakConnections: connections.peak, connectionsOpened: connections.opened },
    };
  } finally {
    clearInterval(tick);
    for (const w of workers) w.kill();
  }
}
