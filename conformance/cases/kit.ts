// Shared by the case files: device requests by operation, and long polls with their order of events.
import type { CaseRun, DeviceRequest } from '../case.js';
import type { Failure } from '../verdict.js';
import { RequestFailed, type Query, type Reply } from '../client.js';
import { isTrue } from '../checks.js';

export type Body = { json: unknown } | { raw: string | Buffer } | undefined;

const devicePath = (token: string, rest: string) => `/api/v1/${encodeURIComponent(token)}/${rest}`;

function withBody(request: DeviceRequest, body: Body): DeviceRequest {
  if (body === undefined) return request;
  return 'json' in body ? { ...request, json: body.json } : { ...request, body: body.raw };
}

export const json = (value: unknown): Body => ({ json: value });
export const raw = (text: string | Buffer): Body => ({ raw: text });

/** One request builder per device operation, named for the specification's table. */
export const op = {
  telemetry: (token: string, body: Body) => withBody({ method: 'POST', path: devicePath(token, 'telemetry'), operationId: 'postTelemetry' }, body),
  postAttributes: (token: string, body: Body) => withBody({ method: 'POST', path: devicePath(token, 'attributes'), operationId: 'postAttributes' }, body),
  getAttributes: (token: string, query?: Query | string): DeviceRequest => ({ method: 'GET', path: devicePath(token, 'attributes'), query, operationId: 'getAttributes' }),
  attributeUpdates: (token: string, timeout: number | string): DeviceRequest => ({
    method: 'GET',
    path: devicePath(token, 'attributes/updates'),
    query: { timeout },
    operationId: 'subscribeAttributes',
    deadlineMs: pollDeadline(timeout),
  }),
  rpcPoll: (token: string, timeout: number | string): DeviceRequest => ({
    method: 'GET',
    path: devicePath(token, 'rpc'),
    query: { timeout },
    operationId: 'subscribeRpc',
    deadlineMs: pollDeadline(timeout),
  }),
  rpcReply: (token: string, id: number | string, body: Body) => withBody({ method: 'POST', path: devicePath(token, `rpc/${id}`), operationId: 'postRpcReply' }, body),
  clientRpc: (token: string, body: Body) => withBody({ method: 'POST', path: devicePath(token, 'rpc'), operationId: 'postClientRpc' }, body),
  claim: (token: string, body: Body) => withBody({ method: 'POST', path: devicePath(token, 'claim'), operationId: 'postClaim' }, body),
  provision: (body: Body) => withBody({ method: 'POST', path: '/api/v1/provision', operationId: 'postProvision' }, body),
  firmware: (token: string, query: Query): DeviceRequest => ({ method: 'GET', path: devicePath(token, 'firmware'), query, operationId: 'getFirmware' }),
  /** A path below the token that no operation has (for 404 and 405 cases). */
  path: (token: string, rest: string) => devicePath(token, rest),
};

/**
 * A long poll must end by itself once its timeout elapses; the suite waits this much longer before
 * it gives up (the fault "poll held 3 s past its timeout" is caught by this generous bound).
 */
export const POLL_GRACE_MS = 2000;

function pollDeadline(timeout: number | string): number {
  const ms = Number(timeout);
  return (Number.isFinite(ms) && ms > 0 ? ms : 0) + POLL_GRACE_MS;
}

export interface PollResult {
  reply?: Reply;
  /** The poll got no answer (within its timeout + POLL_GRACE_MS, or the connection failed). */
  failed?: RequestFailed;
}

export interface OpenPoll {
  result: Promise<PollResult>;
  pending(): boolean;
}

export function startPoll(t: CaseRun, request: DeviceRequest): OpenPoll {
  let done = false;
  const result = t.device(request).then(
    (reply) => ({ reply }),
    (error: unknown) => {
      if (error instanceof RequestFailed) return { failed: error };
      throw error;
    },
  ).finally(() => {
    done = true;
  });
  return { result, pending: () => !done };
}

/**
 * The server gives no signal that a poll is registered, and ThingsBoard drops changes made while
 * no poll is open; so the suite lets the poll settle, checks it is still pending, makes the
 * change, and (attributes only) repeats with a longer settle when the change raced the poll.
 */
export async function changeDuringPoll(
  t: CaseRun,
  poll: DeviceRequest,
  change: (attempt: number) => Promise<unknown>,
  attempts = 3,
): Promise<PollResult & { answeredBeforeChange: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const open = startPoll(t, poll);
    await t.wait(SETTLE_MS * attempt);
    if (!open.pending()) return { ...(await open.result), answeredBeforeChange: true };
    await change(attempt);
    const result = await open.result;
    if (result.reply?.status === 408 && attempt < attempts) continue;
    return { ...result, answeredBeforeChange: false };
  }
}

export const SETTLE_MS = 150;

/** Long enough for a change to arrive after the poll settled; short enough to keep the suite fast. */
export const DELIVERY_TIMEOUT_MS = 2000;
/** Polls that must end by timing out. */
export const QUIET_TIMEOUT_MS = 500;

export function notBeforeChange(result: { answeredBeforeChange: boolean; reply?: Reply }): Failure | undefined {
  return isTrue('pendingUntilChange', !result.answeredBeforeChange, 'the poll still pending when the change was made', `answered before the change: ${result.reply?.status} ${result.reply?.text.slice(0, 120)}`);
}

/** The failure when a poll got no HTTP answer at all. */
export function unanswered(result: PollResult, what: string) {
  return result.failed ? { check: 'pollAnswered', expected: `${what} answered within its timeout + ${POLL_GRACE_MS} ms`, actual: result.failed.message } : undefined;
}

/** ThingsBoard answers a write once it is queued (dhi once it is stored), so read-backs retry this long. */
export const READ_BACK_WINDOW_MS = 3000;

/** Reads through the control API until the checks hold or the window ends; records what still fails. */
export async function expectStored<T>(t: CaseRun, read: () => Promise<T>, checks: (value: T) => (Failure | undefined)[]): Promise<void> {
  const until = Date.now() + READ_BACK_WINDOW_MS;
  for (;;) {
    const failures = checks(await read()).filter((f) => f !== undefined);
    if (failures.length === 0 || Date.now() >= until) return t.expect(...failures);
    await t.wait(250);
  }
}
