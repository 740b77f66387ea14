// The functions of the exported k6 script (export.ts writes its header: constants, metrics,
// options). Kept as text because the script must stand alone; it is type-checked with @types/k6
// and run under stand-ins of the k6 modules by the tests (simulator/test/k6-run.test.ts).
//
// The same truth as dhi simulate: each VU plays one device and keeps to it (its connections are
// that device's, never another's); open-model paths use arrival-rate executors; every outcome is
// classed as dhi simulate classes it and timed, errors too; every request has a timeout.

/** The script's body after its header: types, helpers, setup/teardown and the exported scenario functions. */
export const SCRIPT_BODY = `interface Device {
  id: string;
  token: string;
}
interface SetupData {
  jwt: string;
  devices: Device[];
}
type PathName = keyof typeof latency;

const JSON_HEADERS = { 'Content-Type': 'application/json' };

function path(template: string, params: Record<string, string | number>): string {
  let out = template;
  for (const key of Object.keys(params)) out = out.replace('{' + key + '}', encodeURIComponent(String(params[key])));
  return out;
}

function control(data: SetupData, timeoutMs = REQUEST_TIMEOUT_MS): RefinedParams<'text'> {
  return { headers: { 'Content-Type': 'application/json', 'X-Authorization': 'Bearer ' + data.jwt }, timeout: timeoutMs };
}

/** An outcome as dhi simulate names it: ok, status <code>, timeout, connect, reset or other (k6 error codes). */
function outcomeOf(res: RefinedResponse<'text'>): string {
  if (res.status >= 200 && res.status < 300) return 'ok';
  if (res.status > 0) return 'status ' + res.status;
  const code = res.error_code;
  if (code === 1050 || code === 1211) return 'timeout';
  if ((code >= 1100 && code < 1200) || code === 1210 || code === 1212 || code === 1213) return 'connect';
  if (code >= 1200 && code < 1300) return 'reset';
  return 'other';
}

/** From the moment the VU started the request until its end: waiting for a connection and connecting included. */
function elapsed(res: RefinedResponse<'text'>): number {
  const t = res.timings;
  return t.blocked + t.connecting + t.tls_handshaking + t.duration;
}

/** Every outcome counted and timed, as dhi simulate does; errors carry their class as a tag. */
function record(name: PathName, outcome: string, ms: number): void {
  const ok = outcome === 'ok';
  outcomes[name].failed.add(!ok);
  latency[name].add(ms, { outcome });
  if (ok) outcomes[name].ok.add(1);
  else outcomes[name].errors.add(1, { outcome });
}

export function setup(): SetupData {
  const login = http.post(CONTROL + CONTROL_PATHS.login, JSON.stringify({ username: USERNAME, password: PASSWORD }), { headers: JSON_HEADERS, timeout: REQUEST_TIMEOUT_MS });
  const jwt = String(login.json('token'));
  const devices: Device[] = [];
  for (let i = 0; i < DEVICES; i++) {
    const token = RUN_ID + String(i).padStart(8, '0');
    const name = 'k6-' + RUN_ID + '-DW' + String(i).padStart(8, '0');
    const res = http.post(CONTROL + CONTROL_PATHS.saveDevice + '?accessToken=' + token, JSON.stringify({ name, type: 'default' }), control({ jwt, devices }));
    devices.push({ id: String(res.json('id.id')), token });
  }
  return { jwt, devices };
}

export function teardown(data: SetupData): void {
  for (const d of data.devices) http.del(CONTROL + path(CONTROL_PATHS.deleteDevice, { deviceId: d.id }), null, control(data));
}

/**
 * The device this VU plays, claimed at its first iteration and kept: a VU's connections are one
 * device's. The first iterations of a scenario are numbered 0, 1, 2 ... one per VU, so each VU of
 * a scenario gets its own device; VUs beyond the fleet (extra connections of an arrival-rate
 * scenario, up to MAX_CONNECTIONS_PER_DEVICE per device) take a device already played.
 */
let device: Device | undefined;
function me(data: SetupData): Device {
  device ??= data.devices[exec.scenario.iterationInTest % data.devices.length];
  return device;
}

/** Devices in turn, for the driver (the server side, not a device: its connections are its own). */
function nextDevice(data: SetupData): Device {
  return data.devices[exec.scenario.iterationInTest % data.devices.length];
}

/** A device's POST of a JSON body on a measured path, recorded there. */
function devicePost(name: PathName, url: string, body: unknown): void {
  const res = http.post(url, JSON.stringify(body), { headers: JSON_HEADERS, timeout: REQUEST_TIMEOUT_MS, tags: { path: name } });
  record(name, outcomeOf(res), elapsed(res));
}

function sendTelemetry(data: SetupData): void {
  devicePost('telemetry', TARGET + path(DEVICE_PATHS.telemetry, { accessToken: me(data).token }), telemetryBody());
}

/** Open model: one message per arrival. */
export function telemetry(data: SetupData): void {
  sendTelemetry(data);
}

/** Closed model: send, then wait the rest of the interval (counted from the send's start). */
export function telemetryLoop(data: SetupData): void {
  const started = Date.now();
  sendTelemetry(data);
  sleep(Math.max(0, TELEMETRY_INTERVAL_MS - (Date.now() - started)) / 1000);
}

function poll(template: string, data: SetupData, name: PathName): string | null {
  const res = http.get(TARGET + path(template, { accessToken: me(data).token }) + '?timeout=' + POLL_TIMEOUT_MS, {
    timeout: POLL_TIMEOUT_MS + REQUEST_TIMEOUT_MS,
    tags: { path: name },
  });
  if (res.status === 408 || res.status === 504) {
    pollTimeouts.add(1);
    return null;
  }
  const outcome = outcomeOf(res);
  if (outcome === 'ok') return typeof res.body === 'string' ? res.body : '';
  // A failed poll counts as an error of its path, untimed (its duration is no delivery latency); pause before the next.
  outcomes[name].failed.add(true);
  outcomes[name].errors.add(1, { outcome });
  sleep(1);
  return null;
}

/** Holds the attribute-updates poll; a push is timed from the driver's send time (wall clocks: keep the runners in sync). */
export function attributePoll(data: SetupData): void {
  const body = poll(DEVICE_PATHS.attributeUpdates, data, 'attributePush');
  if (body === null) return;
  const update = JSON.parse(body) as { simSentAt?: number };
  record('attributePush', typeof update.simSentAt === 'number' ? 'ok' : 'other', typeof update.simSentAt === 'number' ? Date.now() - update.simSentAt : 0);
}

/** Holds the RPC poll; a command is timed from the driver's send time, then answered with its sequence number. */
export function rpcPoll(data: SetupData): void {
  const body = poll(DEVICE_PATHS.rpcPoll, data, 'rpcDelivery');
  if (body === null) return;
  const command = JSON.parse(body) as { id: number; method: string; params?: { sentAt?: number; seq?: number } };
  const sentAt = command.params?.sentAt;
  record('rpcDelivery', typeof sentAt === 'number' ? 'ok' : 'other', typeof sentAt === 'number' ? Date.now() - sentAt : 0);
  devicePost('rpcReply', TARGET + path(DEVICE_PATHS.rpcReply, { accessToken: me(data).token, requestId: command.id }), { result: 'ok', method: command.method, seq: command.params?.seq ?? null });
}

export function clientRpcLoop(data: SetupData): void {
  const started = Date.now();
  devicePost('clientRpc', TARGET + path(DEVICE_PATHS.clientRpc, { accessToken: me(data).token }), { method: CLIENT_RPC_METHOD, params: {} });
  sleep(Math.max(0, CLIENT_RPC_INTERVAL_MS - (Date.now() - started)) / 1000);
}

/** A two-way RPC: its answer must carry the command's sequence number, or it is a mismatch. */
export function driveRpc(data: SetupData): void {
  const seq = exec.scenario.iterationInTest;
  const body = { method: 'simCommand', params: { sentAt: Date.now(), seq }, timeout: RPC_TIMEOUT_MS };
  const res = http.post(CONTROL + path(CONTROL_PATHS.rpc, { deviceId: nextDevice(data).id }), JSON.stringify(body), {
    ...control(data, RPC_TIMEOUT_MS + REQUEST_TIMEOUT_MS),
    tags: { path: 'rpc' },
  });
  let outcome = outcomeOf(res);
  if (outcome === 'ok') outcome = (JSON.parse(String(res.body)) as { seq?: unknown }).seq === seq ? 'ok' : 'mismatch';
  record('rpc', outcome, elapsed(res));
}

export function driveAttributes(data: SetupData): void {
  const body = { simSentAt: Date.now(), simSeq: exec.scenario.iterationInTest };
  const res = http.post(CONTROL + path(CONTROL_PATHS.saveDeviceAttributes, { entityType: 'DEVICE', entityId: nextDevice(data).id, scope: 'SHARED_SCOPE' }), JSON.stringify(body), {
    ...control(data),
    tags: { path: 'attributeWrite' },
  });
  record('attributeWrite', outcomeOf(res), elapsed(res));
}
`;
