// Request logs without credentials. Redaction goes by name, not by path pattern: route parameters
// and query parameters named like a credential (accessToken, ...) are logged as ***, whatever the
// path looks like (`//api/v1/TOKEN/...` included). A path no route matched keeps only the segments
// the contract spells out; anything else in it could be a token.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const SECRET_NAMES = new Set(['accesstoken', 'token', 'password', 'secret', 'jwt', 'refreshtoken']);
const HIDDEN = '***';

const isSecret = (name: string) => SECRET_NAMES.has(name.toLowerCase());

function redactQuery(query: string): string {
  if (query === '') return '';
  const params = new URLSearchParams(query);
  for (const name of new Set(params.keys())) if (isSecret(name)) params.set(name, HIDDEN);
  return `?${params.toString().replaceAll(encodeURIComponent(HIDDEN), HIDDEN)}`;
}

/**
 * The URL to log. `route` is the matched route template (`/api/v1/:accessToken/telemetry`) with its
 * `params`; without a route, `staticSegments` (every literal segment of the contract's paths) says
 * which segments may be shown.
 */
export function redactUrl(
  url: string,
  route: string | undefined,
  params: Record<string, string> | undefined,
  staticSegments: ReadonlySet<string>,
): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : redactQuery(url.slice(q + 1));
  const shown = route
    ? route.split('/').map((s) => (s.startsWith(':') ? (isSecret(s.slice(1)) ? HIDDEN : (params?.[s.slice(1)] ?? s)) : s))
    : path.split('/').map((s) => (s === '' || staticSegments.has(s) ? s : HIDDEN));
  return shown.join('/') + query;
}

/** Literal segments of contract paths (`/api/v1/{accessToken}/rpc` gives api, v1, rpc). */
export function staticSegmentsOf(paths: Iterable<string>): Set<string> {
  const segments = new Set<string>();
  for (const path of paths) for (const s of path.split('/')) if (s && !s.startsWith('{')) segments.add(s);
  return segments;
}

export function logSerializers(staticSegments: ReadonlySet<string>) {
  return {
    req(request: FastifyRequest) {
      const url = redactUrl(request.url, request.routeOptions?.url, request.params as Record<string, string>, staticSegments);
      return { method: request.method, url, remoteAddress: request.ip };
    },
    res(reply: { statusCode: number }) {
      return { statusCode: reply.statusCode };
    },
  };
}

/** Whether Fastify's per-request lines (debugRequestLogs) are written at this log level. */
export const logsRequests = (level: string): boolean => level === 'debug' || level === 'trace';

/**
 * Fastify's per-request lines (incoming, completed) at debug instead of info; errors keep their level.
 * `lines` (logsRequests): below debug, no line is built at all (no response time read, no object made).
 */
export function debugRequestLogs(lines: boolean): LogController {
  const logs = new LogController();
  const completed = logs.requestCompleted.bind(logs);
  logs.incomingRequest = (request: FastifyRequest) => {
    if (lines) request.log.debug({ req: request }, 'incoming request');
  };
  logs.requestCompleted = (error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) => {
    if (error) completed(error, request, reply);
    else if (lines) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  };
  return logs;
}
