// The driver: server-side load through the control API at fixed arrival rates (open model).
// Two-way RPC is timed end to end (REST call sent -> device got it -> reply -> REST response);
// shared-attribute writes carry their send time, so devices time the push themselves.
import type { Control } from './control.js';
import { PUSH_SENT_AT, PUSH_SEQ } from './device.js';
import { classifyError, nowEpochMs } from './http.js';
import { createInFlight } from './in-flight.js';
import type { PathName, Recorder } from './metrics.js';
import type { Scenario } from './scenario.js';

export interface DriverConfig {
  scenario: Scenario;
  /** Control ids of the devices, in fleet order. */
  deviceIds: string[];
  rampPerSecond: number | null;
  maxInFlight: number;
}

export interface Driver {
  /** Stop issuing; resolves when every call in flight has its answer. */
  stop(): Promise<void>;
}

const TICK_MS = 5;
export const RPC_METHOD = 'simCommand';

export function startDriver(control: Control, config: DriverConfig, recorder: Recorder): Driver {
  const { driver } = config.scenario;
  const started = performance.now();
  const inFlight = createInFlight();
  let seq = 0;
  let cursor = 0;

  /** Devices online by now under the ramp. */
  const eligible = (now: number): number =>
    config.rampPerSecond === null ? config.deviceIds.length : Math.min(config.deviceIds.length, Math.floor(((now - started) / 1000) * config.rampPerSecond) + 1);

  const finish = (path: PathName, intendedAt: number, status: number) => {
    if (status === 200) recorder.ok(path, (performance.now() - intendedAt) * 1000);
    else recorder.fail(path, `status ${status}`);
  };

  async function issueRpc(deviceId: string, intendedAt: number): Promise<void> {
    const request = { method: RPC_METHOD, params: { sentAt: nowEpochMs(), seq: seq++ }, timeout: driver.rpcTimeoutMs };
    try {
      finish('rpc', intendedAt, (await control.rpcTwoWay(deviceId, driver.rpcApi, request)).status);
    } catch (error) {
      recorder.fail('rpc', classifyError(error));
    }
  }
  async function issueWrite(deviceId: string, intendedAt: number): Promise<void> {
    try {
      finish('attributeWrite', intendedAt, (await control.setShared(deviceId, { [PUSH_SENT_AT]: nowEpochMs(), [PUSH_SEQ]: seq++ })).status);
    } catch (error) {
      recorder.fail('attributeWrite', classifyError(error));
    }
  }

  const streams = [
    { rate: driver.rpcRate, issue: issueRpc, issued: 0 },
    { rate: driver.attrRate, issue: issueWrite, issued: 0 },
  ].filter((s) => s.rate > 0 && config.deviceIds.length > 0);

  const timer = streams.length
    ? setInterval(() => {
        const now = performance.now();
        const count = eligible(now);
        for (const stream of streams) {
          const perMs = stream.rate / 1000;
          // The first arrival is one inter-arrival time after the start, when polls are open.
          const due = Math.floor((now - started) * perMs);
          for (; stream.issued < due; stream.issued++) {
            if (inFlight.count >= config.maxInFlight) {
              recorder.count('dropped');
              continue;
            }
            const deviceId = config.deviceIds[cursor++ % count];
            void inFlight.track(stream.issue(deviceId, started + (stream.issued + 1) / perMs));
          }
        }
      }, TICK_MS)
    : undefined;

  return {
    async stop() {
      if (timer) clearInterval(timer);
      await inFlight.idle();
    },
  };
}
