// The driver: server-side load through the control API at fixed arrival rates (open model), sent
// only to devices whose polls are on the wire (the groups report them online).
// Two-way RPC is timed end to end from its intended send time (REST call -> device got it ->
// reply -> REST response) and the answer must carry the command's sequence number. Shared-
// attribute writes carry their send time and a per-device sequence number, so devices time the
// push and count the changes that never reached them.
import { createArrivals, type Arrivals } from './arrivals.js';
import { monoNow } from './clock.js';
import type { Control } from './control.js';
import { PUSH_SENT_AT, PUSH_SEQ } from './device.js';
import { classifyError } from './http.js';
import { createInFlight } from './in-flight.js';
import type { PathName, Recorder } from './metrics.js';
import type { Scenario } from './scenario.js';

export interface DriverConfig {
  scenario: Scenario;
  maxInFlight: number;
}

export interface Driver {
  /** Devices (control ids) whose polls are open: from now on they may be driven. */
  online(deviceIds: readonly string[]): void;
  /** Stop issuing; resolves when every call in flight has its answer, with the moment (clock.ts ms) issuing stopped. */
  stop(): Promise<number>;
}

const TICK_MS = 5;
export const RPC_METHOD = 'simCommand';

/** Whether a two-way RPC answer is the device's reply to the command with this sequence number. */
export function replyMatches(body: string, seq: number): boolean {
  try {
    const reply = JSON.parse(body) as { seq?: unknown } | null;
    return reply?.seq === seq;
  } catch {
    return false;
  }
}

export function startDriver(control: Control, config: DriverConfig, recorder: Recorder): Driver {
  const { driver } = config.scenario;
  const inFlight = createInFlight();
  const targets: string[] = [];
  /** Per device: the next attribute-change sequence number. */
  const writeSeq = new Map<string, number>();
  let rpcSeq = 0;
  let cursor = 0;

  const finish = (path: PathName, intendedAt: number, status: number, matches = true) =>
    recorder.record(path, status !== 200 ? `status ${status}` : matches ? 'ok' : 'mismatch', intendedAt, 'intended');

  async function issueRpc(intendedAt: number): Promise<void> {
    const seq = rpcSeq++;
    const request = { method: RPC_METHOD, params: { sentAt: monoNow(), seq }, timeout: driver.rpcTimeoutMs };
    try {
      const reply = await control.rpcTwoWay(targets[cursor++ % targets.length], driver.rpcApi, request);
      finish('rpc', intendedAt, reply.status, reply.status === 200 && replyMatches(reply.body, seq));
    } catch (error) {
      recorder.record('rpc', classifyError(error), intendedAt, 'intended');
    }
  }
  async function issueWrite(intendedAt: number): Promise<void> {
    const deviceId = targets[cursor++ % targets.length];
    const seq = writeSeq.get(deviceId) ?? 0;
    writeSeq.set(deviceId, seq + 1);
    try {
      finish('attributeWrite', intendedAt, (await control.setShared(deviceId, { [PUSH_SENT_AT]: monoNow(), [PUSH_SEQ]: seq })).status);
    } catch (error) {
      recorder.record('attributeWrite', classifyError(error), intendedAt, 'intended');
    }
  }

  const plans = [
    { rate: driver.rpcRate, send: issueRpc, path: 'rpc' as const },
    { rate: driver.attrRate, send: issueWrite, path: 'attributeWrite' as const },
  ].filter((p) => p.rate > 0);
  let streams: Arrivals[] = [];
  let timer: NodeJS.Timeout | undefined;

  return {
    online(deviceIds) {
      targets.push(...deviceIds);
      // The arrivals start with the first device online: none is scheduled into an empty fleet.
      if (timer || !targets.length || !plans.length) return;
      const startAt = monoNow();
      streams = plans.map((p) =>
        createArrivals({
          rate: p.rate,
          startAt,
          slotMs: TICK_MS,
          maxInFlight: config.maxInFlight,
          inFlight,
          send: p.send,
          drop: (intendedAt) => recorder.record(p.path, 'dropped', intendedAt, 'untimed'),
        }),
      );
      timer = setInterval(() => {
        const now = monoNow();
        for (const stream of streams) stream.tick(now);
      }, TICK_MS);
    },
    async stop() {
      if (timer) clearInterval(timer);
      const stoppedAt = monoNow();
      await inFlight.idle();
      return stoppedAt;
    },
  };
}
