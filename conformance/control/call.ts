// How the suite talks to the server side: ThingsBoard's REST API (login + JWT), so the same suite
// drives dhi's reference server and a real ThingsBoard.
import type { Exchange } from '../client.js';
import type { HttpTarget, Reply, RequestSpec } from '../client.js';
import { RequestFailed } from '../client.js';
import type { ContractChecker } from '../contract-check.js';
import type { Body, OperationId, Query } from '../../spec/types.js';

/** The control API answered something the suite cannot work with: a harness error, not a failure. */
export class ControlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ControlError';
  }
}

export interface ControlContext {
  http: HttpTarget;
  jwt: string;
  checker: ContractChecker;
  record(exchange: Exchange): void;
  /** Differences of control responses from the document: notes on the record, not failures. */
  note(text: string): void;
  cleanup(action: () => Promise<unknown>): void;
}

export type Expect = number[] | 'any';

/** A request of one operation: its JSON body and query as the contract types them. */
export type ControlRequest<Id extends OperationId> = Omit<RequestSpec, 'json' | 'query'> & { json?: Body<Id>; query?: Query<Id> };

export async function call<Id extends OperationId>(ctx: ControlContext, operationId: Id, spec: ControlRequest<Id>, expect: Expect = [200], jwt = ctx.jwt): Promise<Reply> {
  const headers = { 'x-authorization': `Bearer ${jwt}`, ...spec.headers };
  let reply: Reply;
  try {
    reply = await ctx.http.send({ ...spec, headers }, 'control', (e) => ctx.record({ ...e, operationId }));
  } catch (error) {
    if (error instanceof RequestFailed) throw new ControlError(`control API ${operationId}: ${error.message}`);
    throw error;
  }
  if (expect !== 'any' && !expect.includes(reply.status)) {
    throw new ControlError(`control API ${operationId}: ${spec.method} ${spec.path} answered ${reply.status}, expected ${expect.join(' or ')}: ${reply.text.slice(0, 200)}`);
  }
  for (const f of ctx.checker.check(operationId, reply, 'INFO')) {
    ctx.note(`control response differs from the document: ${f.message ?? operationId} ${f.check}: ${JSON.stringify(f.actual).slice(0, 300)}`);
  }
  return reply;
}

export function bodyOf<T>(reply: Reply, what: string): T {
  if (reply.json === undefined) throw new ControlError(`control API: ${what} is not JSON: ${reply.text.slice(0, 200)}`);
  return reply.json as T;
}

export interface LoginResult {
  jwt?: string;
  /** Why the control API cannot be used: one line naming the URL and the status (or the network error). */
  unavailable?: string;
}

export async function login(http: HttpTarget, username: string, password: string): Promise<LoginResult> {
  const where = `POST ${http.baseUrl}/api/auth/login as ${username}`;
  let failure = '';
  try {
    const reply = await http.send({ method: 'POST', path: '/api/auth/login', json: { username, password }, deadlineMs: 10_000 }, 'control', (e) => (failure = e.error ?? ''));
    const token = (reply.json as { token?: unknown } | undefined)?.token;
    if (reply.status === 200 && typeof token === 'string') return { jwt: token };
    // ThingsBoard's error body says why ("Invalid username or password"); any other body is left out.
    const message = (reply.json as { message?: unknown } | undefined)?.message;
    const why = typeof message === 'string' ? ` (${message.replace(/\s+/g, ' ').slice(0, 120)})` : reply.status === 200 ? ' without a token' : '';
    return { unavailable: `control API login failed: ${where} answered ${reply.status}${why}` };
  } catch (error) {
    return { unavailable: `control API login failed: ${where}: ${failure || (error as Error).message}` };
  }
}
