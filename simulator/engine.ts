// The engine: brings up the fleet, runs device groups (in-process or in workers) and the driver
// for the requested duration, stops them in order, and returns the measurements. It emits
// events; presenters (progress.ts, the CLI) print them.
import { connectionsPerDevice, FD_BUDGET, processesNeeded } from './capacity.js';
import { createControl, type Control } from './control.js';
import { createThroughControl, createThroughProvisioning, deleteFleet, readTokensFile, type FleetMember } from './fleet.js';
import { loadTemplates } from './routes.js';
import { runFleet } from './run-fleet.js';
import { SimulationError, type EngineEvent, type SimulationConfig, type SimulationResult } from './simulation.js';

/** `interrupt` ends the run early (Ctrl-C): calls in flight finish, reports and cleanup still happen. */
export async function runSimulation(config: SimulationConfig, emit: (event: EngineEvent) => void = () => {}, interrupt?: AbortSignal): Promise<SimulationResult> {
  const { scenario } = config;
  const needed = processesNeeded(config.devices, scenario, config.workers);
  if (needed > config.workers) {
    throw new SimulationError(
      `${config.devices} devices with ${connectionsPerDevice(scenario)} connection(s) each (one per poll, one for its other requests) need more than ${FD_BUDGET} descriptors in one process: use --workers ${needed} or more`,
    );
  }
  const templates = await loadTemplates();
  // The control API creates the fleet (unless it comes from tokens or provisioning) and drives it.
  // A provisioned fleet uses it when it can: to address the devices and delete them afterwards.
  const needsControl = (!config.tokensFile && !config.provision) || scenario.driver.rpcRate > 0 || scenario.driver.attrRate > 0;
  let control: Control | undefined;
  if (needsControl || config.provision) {
    control = createControl({
      url: config.controlUrl,
      username: config.username,
      password: config.password,
      templates: templates.control,
      connections: 256,
      requestTimeoutMs: Math.max(30_000, scenario.driver.rpcTimeoutMs + config.requestTimeoutMs),
      insecure: config.insecure,
    });
    try {
      await control.login();
    } catch (error) {
      await control.close();
      control = undefined;
      const message = `cannot use the control API at ${config.controlUrl}: ${(error as Error).message}`;
      if (needsControl) throw new SimulationError(message);
      emit({ type: 'warning', message });
    }
  }
  const runId = `${Date.now().toString(36)}${(config.seed % 1296).toString(36).padStart(2, '0')}`;
  let members: FleetMember[] = [];
  let source: SimulationResult['fleet']['source'];
  const created: FleetMember[] = [];
  const onCreated = (member: FleetMember) => {
    created.push(member);
    emit({ type: 'fleet-progress', done: created.length, total: config.devices });
  };
  try {
    emit({ type: 'phase', phase: 'fleet', message: `bringing up ${config.devices} devices` });
    if (config.tokensFile) {
      source = 'tokens';
      members = readTokensFile(config.tokensFile, config.devices);
    } else if (config.provision) {
      source = 'provisioning';
      const provision = { url: config.target, template: templates.device.provision, insecure: config.insecure, ...config.provision };
      members = await createThroughProvisioning(provision, runId, config.devices, control, onCreated);
    } else {
      source = 'control';
      members = await createThroughControl(control as Control, runId, config.devices, onCreated);
    }
    const deviceIds = members.flatMap((m) => (m.id ? [m.id] : []));
    if ((scenario.driver.rpcRate > 0 || scenario.driver.attrRate > 0) && deviceIds.length < members.length) {
      emit({ type: 'warning', message: `${members.length - deviceIds.length} devices have no control id: the driver addresses only ${deviceIds.length}` });
    }
    const run = await runFleet(config, members, templates.device, control, emit, interrupt);
    const fleet = { source, members: members.length, addressable: deviceIds.length };
    return { ...run, fleet, sampleToken: config.keepDevices ? members[0]?.token : undefined };
  } finally {
    if (!control && created.length && !config.keepDevices) {
      emit({ type: 'warning', message: `the ${created.length} provisioned devices stay on the server (deleting them needs the control API)` });
    }
    if (control && created.length && !config.keepDevices) {
      emit({ type: 'phase', phase: 'cleanup', message: `deleting the ${created.length} devices of this run` });
      await deleteFleet(control, created).catch((error: Error) => emit({ type: 'warning', message: `cleanup: ${error.message}` }));
    }
    await control?.close();
  }
}

