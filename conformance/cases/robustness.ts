// Group 7, robustness (`dhi conform --robustness`, off by default): hostile bodies are 4xx, never
// 5xx, and the server keeps serving; oversized bodies are refused without being read to the end;
// slow clients are cut in bounded time; aborted and concurrent polls lose nothing. Slow and partial
// requests go over raw sockets (raw-socket.ts): an HTTP client library will not send them.
import type { Case, CaseRun } from '../case.js';
import type { Failure } from '../verdict.js';
import type { Reply } from '../client.js';
import { checkAll, errorMessageSays, isErrorBody, isTrue, statusIs } from '../checks.js';
import { closesWithin, connectRaw, pathPrefix, rawExchange, statusOf, trickle } from '../raw-socket.js';
import { deliveredCommand } from './05-rpc-poll.js';
import { json, op, raw, SETTLE_MS, startPoll } from './kit.js';

/** Slow clients must be closed within this (the runner gives a case 30 s). */
export const SLOW_CLIENT_BOUND_MS = 25_000;
/** A trickling client sends one byte this often: slow, but never idle long enough for an idle timeout. */
const TRICKLE_EVERY_MS = 500;
/** The oversized body declares 1 GiB; the suite pushes at most this much before it judges. */
const OVERSIZED_DECLARED = 1024 ** 3;
const OVERSIZED_PUSH_MAX = 64 * 1024 ** 2;
const OVERSIZED_PUSH_MS = 20_000;
const CONCURRENT_POLLS = 50;
/** How long after the target's client-RPC timeout the suite still waits for its answer. */
const UNANSWERED_RPC_MARGIN_MS = 5_000;

const NESTING = 20_000;
const deepArray = '['.repeat(NESTING) + ']'.repeat(NESTING);
const deepObject = '{"a":'.repeat(NESTING) + '1' + '}'.repeat(NESTING);
const hugeInteger = '9'.repeat(400);

/** 4xx: the server refused the body as the client's mistake (a 5xx is the server's failure). */
function statusIs4xx(what: string) {
  return (r: Reply): Failure | undefined =>
    r.status >= 400 && r.status < 500 ? undefined : { check: 'statusIs4xx', expected: `4xx for ${what}`, actual: `${r.status} ${r.text.slice(0, 120)}` };
}

function notServerError(what: string) {
  return (r: Reply): Failure | undefined =>
    r.status < 500 ? undefined : { check: 'notServerError', expected: `no 5xx for ${what}`, actual: `${r.status} ${r.text.slice(0, 120)}` };
}

/** After hostile input the device can still write and read. */
async function stillServes(t: CaseRun, token: string): Promise<void> {
  t.expect(
    at200('stillAcceptsTelemetry', await t.device(op.telemetry(token, json({ afterHostile: 1 })))),
    at200('stillReadsAttributes', await t.device(op.getAttributes(token))),
  );
}

const at200 = (check: string, r: Reply): Failure | undefined => (r.status === 200 ? undefined : { check, expected: 200, actual: r.status });

/** A body case: each request must be 4xx; then the device still works. */
function hostileBodies(id: string, title: string, requirement: string, bodies: { what: string; path: 'telemetry' | 'attributes'; body: string | Buffer; contentType?: string }[]): Case {
  return {
    id, title, requirement, severity: 'MUST', devices: 1,
    async run(t) {
      const { token } = t.devices[0];
      for (const b of bodies) {
        const request = b.path === 'telemetry' ? op.telemetry(token, raw(b.body)) : op.postAttributes(token, raw(b.body));
        const reply = await t.device({ ...request, operationId: undefined, headers: { 'content-type': b.contentType ?? 'application/json' } });
        t.expect(statusIs4xx(b.what)(reply));
      }
      await stillServes(t, token);
    },
  };
}

/** Writes `head` and then body bytes until the server closes, `max` bytes or `ms` ran out. */
async function pushUntilClosed(t: CaseRun, head: string, max: number, ms: number): Promise<{ status?: number; sent: number; closed: boolean }> {
  const connection = await connectRaw(t.baseUrl);
  const chunk = Buffer.alloc(256 * 1024, 0x20);
  const end = Date.now() + ms;
  let sent = 0;
  await connection.write(head);
  while (sent < max && Date.now() < end && (await connection.write(chunk))) sent += chunk.length;
  const closed = await closesWithin(connection, 1000);
  connection.destroy();
  return { status: statusOf(connection.received()), sent, closed };
}

async function slowClient(t: CaseRun, head: string, trickled: string): Promise<void> {
  const connection = await connectRaw(t.baseUrl);
  const started = Date.now();
  if (head) await connection.write(head);
  await trickle(connection, trickled, TRICKLE_EVERY_MS, SLOW_CLIENT_BOUND_MS);
  const closed = connection.isClosed();
  connection.destroy();
  t.expect(isTrue('slowClientClosed', closed, `the server closes the connection within ${SLOW_CLIENT_BOUND_MS} ms`,
    `still open after ${Date.now() - started} ms of one byte every ${TRICKLE_EVERY_MS} ms`));
}

const POST = (t: CaseRun, path: string, headers: string) => `POST ${pathPrefix(t.baseUrl)}${path} HTTP/1.1\r\nHost: ${new URL(t.baseUrl).host}\r\n${headers}\r\n`;

export const robustnessCases: Case[] = [
  hostileBodies('1.7.1', 'deeply nested JSON is 4xx, never 5xx, and the device still works',
    `A body nested ${NESTING} levels deep is invalid input, 400 (specification, Errors); it must not crash or stall the server (robustness).`, [
      { what: 'nested arrays on telemetry', path: 'telemetry', body: deepArray },
      { what: 'nested objects on telemetry', path: 'telemetry', body: deepObject },
      { what: 'nested objects on attributes', path: 'attributes', body: `{"k":${deepObject}}` },
      { what: 'nested arrays in an attribute value', path: 'attributes', body: `{"k":${deepArray}}` },
    ]),
  {
    id: '1.7.2',
    title: 'huge numbers are refused (4xx) or stored readably, never 5xx',
    requirement: 'A number beyond double range, or a timestamp far beyond any date, is refused or kept so that later reads still work; never a 5xx (robustness).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const bodies = [`{"ts":1e300,"values":{"hugeTs":1}}`, `{"beyondDouble":1e400}`, `{"hugeInteger":${hugeInteger}}`];
      for (const body of bodies) t.expect(notServerError(body.slice(0, 40))(await t.device(op.telemetry(d.token, raw(body)))));
      t.expect(notServerError('an attribute of 1e400')(await t.device(op.postAttributes(d.token, raw('{"beyondDouble":1e400}')))));
      t.expect(notServerError('reading the attributes back')(await t.device(op.getAttributes(d.token, { clientKeys: 'beyondDouble' }))));
      try {
        await t.control.getTimeseries(d.id, ['hugeTs', 'beyondDouble', 'hugeInteger']);
      } catch (error) {
        t.expect({ check: 'telemetryReadable', expected: 'the device telemetry still reads', actual: (error as Error).message });
      }
      await stillServes(t, d.token);
    },
  },
  hostileBodies('1.7.3', 'a body that is not valid UTF-8 is 4xx, never 5xx',
    'JSON text is UTF-8 (RFC 8259, 8.1); a body with invalid UTF-8 is invalid input, 400 (specification, Errors).', [
      { what: 'invalid UTF-8 in a string', path: 'telemetry', body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
      { what: 'a lone continuation byte in a key', path: 'attributes', body: Buffer.from([0x7b, 0x22, 0x80, 0x22, 0x3a, 0x31, 0x7d]) },
    ]),
  hostileBodies('1.7.4', 'bodies of other content types are 4xx, never 5xx',
    'Only a JSON body is valid input for the device API; XML, text, forms and multipart are 4xx (specification, Errors).', [
      { what: 'XML', path: 'telemetry', body: '<telemetry><t>1</t></telemetry>', contentType: 'application/xml' },
      { what: 'plain text', path: 'telemetry', body: 'temperature=21', contentType: 'text/plain' },
      { what: 'a form', path: 'attributes', body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
      { what: 'broken multipart', path: 'telemetry', body: '--x\r\nbroken', contentType: 'multipart/form-data; boundary=x' },
    ]),
  {
    id: '1.7.5',
    title: 'an oversized body is refused with 413 and not read to the end',
    requirement: `A body declared at ${OVERSIZED_DECLARED} bytes is over any payload limit: 413, and the server closes the connection instead of reading it (robustness; ThingsBoard's max_payload_size).`,
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const head = POST(t, `/api/v1/${encodeURIComponent(t.devices[0].token)}/telemetry`, `Content-Type: application/json\r\nContent-Length: ${OVERSIZED_DECLARED}\r\n`);
      const result = await pushUntilClosed(t, head, OVERSIZED_PUSH_MAX, OVERSIZED_PUSH_MS);
      t.expect(
        isTrue('refusedWith413', result.status === 413, 413, result.status ?? 'no answer'),
        isTrue('stopsReading', result.sent < OVERSIZED_PUSH_MAX && result.closed, `the connection closed before ${OVERSIZED_PUSH_MAX} bytes were pushed`,
          `${result.sent} bytes pushed, connection ${result.closed ? 'closed' : 'still open'}`),
      );
      await stillServes(t, t.devices[0].token);
    },
  },
  {
    id: '1.7.6',
    title: 'a client that sends its headers slowly is closed in bounded time',
    requirement: `A client that trickles its request headers (one byte every ${TRICKLE_EVERY_MS} ms) is disconnected within ${SLOW_CLIENT_BOUND_MS} ms, so that slow clients cannot hold the server's connections (robustness, slowloris).`,
    severity: 'MUST',
    async run(t) {
      const headers = `GET ${pathPrefix(t.baseUrl)}/api/v1/slow/attributes HTTP/1.1\r\nHost: ${new URL(t.baseUrl).host}\r\n` + 'X-Slow: 1\r\n'.repeat(200);
      await slowClient(t, '', headers);
    },
  },
  {
    id: '1.7.7',
    title: 'a client that sends its body slowly is closed in bounded time',
    requirement: `A client that trickles its request body (one byte every ${TRICKLE_EVERY_MS} ms) is disconnected within ${SLOW_CLIENT_BOUND_MS} ms (robustness, slow POST).`,
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const body = `{"slow":"${'x'.repeat(990)}"}`;
      const head = POST(t, `/api/v1/${encodeURIComponent(t.devices[0].token)}/telemetry`, `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n`);
      await slowClient(t, head, body);
    },
  },
  {
    id: '7.7.1',
    title: 'a device-side RPC that no rule answers is answered 503 once the server\'s timeout has passed, not held open',
    requirement: 'A device-side RPC is answered by a rule node (specification, operation 7); when none answers, ThingsBoard ends the request 503 with its error JSON after about 30 s, so no request waits forever (robustness). The wait is --client-rpc-timeout plus 5 s.',
    severity: 'SHOULD',
    devices: 1,
    async run(t) {
      const request = op.clientRpc(t.devices[0].token, json({ method: `${t.unique}-unanswered`, params: {} }));
      const reply = await t.device({ ...request, deadlineMs: t.clientRpcTimeoutMs + UNANSWERED_RPC_MARGIN_MS });
      t.expect(...checkAll(reply, statusIs(503), isErrorBody(503), errorMessageSays('why the RPC ended')));
    },
  },
  {
    id: '5.7.1',
    title: 'a poll aborted mid-wait does not eat the next command',
    requirement: 'A command issued after a device dropped its poll is kept for the next poll, not written to the dead connection (specification, operation 5; robustness).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const dropped = await connectRaw(t.baseUrl);
      await dropped.write(`GET ${pathPrefix(t.baseUrl)}/api/v1/${encodeURIComponent(d.token)}/rpc?timeout=20000 HTTP/1.1\r\nHost: ${new URL(t.baseUrl).host}\r\n\r\n`);
      await t.wait(SETTLE_MS * 2);
      dropped.destroy();
      await t.wait(SETTLE_MS * 2);
      const command = { method: 'afterAbort', params: { n: 1 } };
      const rest = t.control.sendRpc('oneway', d.id, { ...command, timeout: 5000 });
      rest.catch(() => undefined);
      await t.wait(SETTLE_MS);
      const result = await startPoll(t, op.rpcPoll(d.token, 2000)).result;
      t.expect(...deliveredCommand(result, command));
      await rest.catch(() => undefined);
    },
  },
  {
    id: '5.7.2',
    title: `${CONCURRENT_POLLS} concurrent polls on one device are all answered and one gets the command`,
    requirement: 'Many open polls on one device are each answered (the command, or 408 at their timeout), never dropped or 5xx, and the server keeps serving meanwhile (robustness).',
    severity: 'MUST',
    devices: 1,
    async run(t) {
      const [d] = t.devices;
      const head = `GET ${pathPrefix(t.baseUrl)}/api/v1/${encodeURIComponent(d.token)}/rpc?timeout=3000 HTTP/1.1\r\nHost: ${new URL(t.baseUrl).host}\r\nConnection: close\r\n\r\n`;
      const polls = Array.from({ length: CONCURRENT_POLLS }, () => rawExchange(t.baseUrl, head));
      await t.wait(SETTLE_MS * 3);
      t.expect(at200('servesDuringPolls', await t.device(op.telemetry(d.token, json({ duringPolls: 1 })))));
      const command = { method: 'toMany', params: {} };
      const rest = t.control.sendRpc('oneway', d.id, { ...command, timeout: 5000 });
      rest.catch(() => undefined);
      const results = await Promise.all(polls);
      const statuses = results.map((r) => r.status ?? 'no answer');
      const bad = statuses.filter((s) => s !== 200 && s !== 408);
      t.expect(
        isTrue('everyPollAnswered', bad.length === 0, 'each poll 200 or 408', `${bad.length} of ${CONCURRENT_POLLS}: ${[...new Set(bad)].join(', ')}`),
        isTrue('commandDelivered', results.some((r) => r.status === 200 && r.received.includes('toMany')), 'one poll delivers the command', statuses.join(',')),
      );
      t.expect(statusIs(200)(await rest.catch((error: Error) => ({ status: 0, text: error.message }) as Reply)));
    },
  },
];
