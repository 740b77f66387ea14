// The thread behind the k6/http stand-in: it makes each request with undici (one Agent per VU:
// the VU's own connections) and hands the answer back through a MessagePort, then wakes the VU's
// thread, which waits on a shared Int32Array (k6's requests are synchronous).
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { Agent, request } from 'undici';

const agent = new Agent({ connections: 8, keepAliveTimeout: 4_000 });

// k6's error codes for what can go wrong (https://grafana.com/docs/k6/latest/javascript-api/error-codes/).
const ERROR_CODES = { UND_ERR_HEADERS_TIMEOUT: 1050, UND_ERR_BODY_TIMEOUT: 1050, ECONNREFUSED: 1212, ECONNRESET: 1220, UND_ERR_SOCKET: 1220 };

parentPort.on('message', async ({ method, url, body, headers, timeoutMs, port, flag }) => {
  const started = performance.now();
  let answer;
  try {
    const res = await request(url, { method, body: body ?? undefined, headers, dispatcher: agent, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const text = await res.body.text();
    answer = { status: res.statusCode, body: text, error_code: 0, error: '', duration: performance.now() - started };
  } catch (error) {
    const code = error.code ?? error.cause?.code;
    answer = { status: 0, body: null, error_code: ERROR_CODES[code] ?? 1000, error: String(error.message), duration: performance.now() - started };
  }
  port.postMessage(answer);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
