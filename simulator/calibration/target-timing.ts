// When the calibration target answers, by its plan: every request `latencyMs` after it arrived, all
// of them held while the target is silent, a share of the simulator's requests refused 503 and
// another never answered. And what it really did, per simulator path: each outcome, how long it held
// each request, the arrivals in the silence. Timestamps are clock.ts milliseconds.
import type { ServerResponse } from 'node:http';
import { monoNow } from '../clock.js';
import { createHistogram, encodeHistogram, recordMicros, type Histogram } from '../histograms.js';
import type { Outcome, PathName } from '../metrics.js';
import { createRandom } from '../profiles.js';

export interface TargetPlan {
  latencyMs: number;
  /** Silent from `afterMs` after the first device request, for `forMs`; null: never silent. */
  silence: { afterMs: number; forMs: number } | null;
  /** Shares of the simulator's own requests (telemetry, device-side RPC, attribute writes, RPC calls) answered 503, and never answered. */
  errorShare: number;
  hangShare: number;
  seed: number;
}

/** What the target did on one simulator path. */
export interface TargetPath {
  outcomes: Partial<Record<Outcome, number>>;
  /** How long each request was held (µs), every outcome; encoded (histograms.ts). */
  held: string;
  /** Requests that arrived while the target was silent. */
  arrivedInSilence: number;
}

export interface TargetRecords {
  plan: TargetPlan;
  /** When the silence really began and ended (clock.ts ms); null when there was none (yet). */
  silence: { from: number; to: number } | null;
  paths: Partial<Record<PathName, TargetPath>>;
  /** Attribute changes answered 200 while the device had no poll open: never pushed. */
  pushesLost: number;
  pollTimeouts: number;
}

interface PathCell {
  outcomes: Partial<Record<Outcome, number>>;
  held: Histogram;
  arrivedInSilence: number;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** Answer `res` (a JSON body, or none); false when it is too late: answered already, or the client went. */
export function send(res: ServerResponse, status: number, body = ''): boolean {
  if (res.writableEnded || res.destroyed) return false;
  res.writeHead(status, body ? { ...JSON_TYPE, 'content-length': Buffer.byteLength(body) } : { 'content-length': 0 }).end(body);
  return true;
}

export type Timing = ReturnType<typeof createTiming>;

export function createTiming(plan: TargetPlan) {
  const random = createRandom(plan.seed);
  const cells = new Map<PathName, PathCell>();
  let silent = false;
  let silence: TargetRecords['silence'] = null;
  let silenceArmed = false;
  let heldBack: (() => void)[] = [];

  const cell = (path: PathName) => {
    let found = cells.get(path);
    if (!found) cells.set(path, (found = { outcomes: {}, held: createHistogram(), arrivedInSilence: 0 }));
    return found;
  };
  /** One answer (or a client that gave up) on `path`, held since `arrivedAt`. */
  const record = (path: PathName, outcome: Outcome, arrivedAt: number) => {
    const x = cell(path);
    x.outcomes[outcome] = (x.outcomes[outcome] ?? 0) + 1;
    recordMicros(x.held, (monoNow() - arrivedAt) * 1000);
  };

  /** Run `answer` now, or at the end of the silence if the target is silent. */
  const whenSpeaking = (answer: () => void) => (silent ? heldBack.push(answer) : answer());
  /** Run `answer` latencyMs from now (later if the target is silent then). */
  const afterLatency = (answer: () => void): void => void setTimeout(whenSpeaking, plan.latencyMs, answer);

  function armSilence(): void {
    silenceArmed = true;
    if (!plan.silence) return;
    const { afterMs, forMs } = plan.silence;
    setTimeout(() => {
      silent = true;
      silence = { from: monoNow(), to: Infinity };
      setTimeout(() => {
        silent = false;
        silence!.to = monoNow();
        const answers = heldBack;
        heldBack = [];
        for (const answer of answers) answer();
      }, forMs);
    }, afterMs);
  }

  /**
   * A request of one of the simulator's measured paths that may be refused or left unanswered:
   * `ok` runs when it is to be answered normally. One the client gives up on before its answer
   * (it closes the connection: never answered, or held longer than the client waits) is recorded
   * then, as the timeout the client must report.
   */
  function measured(path: PathName, res: ServerResponse, arrivedAt: number, ok: () => void): void {
    res.once('close', () => res.writableEnded || record(path, 'timeout', arrivedAt));
    const draw = random();
    if (draw < plan.hangShare) return;
    if (draw < plan.hangShare + plan.errorShare) {
      afterLatency(() => send(res, 503, '{"status":503,"message":"calibration: refused on purpose","errorCode":2}') && record(path, 'status 503', arrivedAt));
      return;
    }
    ok();
  }

  return {
    record,
    whenSpeaking,
    afterLatency,
    measured,
    /** A request arrived: the first device request starts the silence's clock; one on a measured `path` in the silence is counted. */
    arrived(deviceFacing: boolean, path: PathName | undefined): void {
      if (deviceFacing && !silenceArmed) armSilence();
      if (path && silent) cell(path).arrivedInSilence++;
    },
    records(): Pick<TargetRecords, 'silence' | 'paths'> {
      const paths: TargetRecords['paths'] = {};
      for (const [path, x] of cells) paths[path] = { outcomes: { ...x.outcomes }, held: encodeHistogram(x.held), arrivedInSilence: x.arrivedInSilence };
      return { silence: silence && { ...silence }, paths };
    },
  };
}
