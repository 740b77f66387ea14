// Device state as ThingsBoard's DefaultDeviceStateService keeps it: per device the keys `active`,
// `lastConnectTime`, `lastActivityTime`, `lastDisconnectTime` and `inactivityAlarmTime`, as server
// attributes (or latest telemetry with --persist-state-to-telemetry). A new device is saved
// inactive; a device message makes it active; once `inactivityTimeout` (the device's server
// attribute in ms, else --inactivity-timeout) passes without one it is inactive again. A long poll is
// ThingsBoard's HTTP sync session: the first one open is a connect, the last one ending a disconnect.
//
// The request path pays one Map write per message (activity); the marks are turned into saves in
// batches, one transaction per --state-flush-interval, and the inactivity check runs every
// --state-check-interval over the devices it knows (those seen since the start and those saved active).
import type { ServerConfig } from './config.js';
import type { KvEntry, Store } from './store/types.js';

export const STATE_KEYS = ['active', 'lastConnectTime', 'lastActivityTime', 'lastDisconnectTime', 'inactivityAlarmTime'] as const;
export const INACTIVITY_TIMEOUT = 'inactivityTimeout';

export interface DeviceState {
  /** A device message (hot path): one Map write. */
  activity(deviceId: string): void;
  /** A long poll of the device opened or ended. */
  sessionOpened(deviceId: string): void;
  sessionClosed(deviceId: string): void;
  /** A device was created (inside its store write): saved inactive. */
  created(deviceId: string, createdTime: number): void;
  /** Save what the marks since the last flush say (tests call it to read the state at once). */
  flush(): Promise<void>;
  /** Mark inactive the devices whose timeout passed (tests call it with a later `now`). */
  check(now?: number): Promise<void>;
  /** Stop the timers and save what is pending. */
  close(): Promise<void>;
}

interface State {
  active: boolean;
  lastConnectTime: number;
  lastActivityTime: number;
  lastDisconnectTime: number;
  inactivityAlarmTime: number;
  createdTime: number;
}

type Marks = Map<string, number>;
type Saves = Map<string, KvEntry[]>;

const numberOf = (entry: KvEntry | undefined) => (entry && typeof entry.value !== 'string' ? Number(entry.value) : 0);

/** `onError`: a batch that could not be saved (logged; the request path never waits for it). */
export function createDeviceState(store: Store, config: Readonly<ServerConfig>, onError: (error: unknown) => void): DeviceState {
  const telemetry = config.persistStateToTelemetry;
  let activity: Marks = new Map();
  let connects: Marks = new Map();
  let disconnects: Marks = new Map();
  const sessions = new Map<string, number>();
  const states = new Map<string, State>();

  /**
   * The states of the devices not known yet, as saved (read once, then kept in memory); a deleted
   * device has none. Saved telemetry is read through the store's fold: what was acknowledged may still
   * wait in its ingest log (reads of many devices at once take one fold).
   */
  async function load(deviceIds: Iterable<string>): Promise<void> {
    await Promise.all([...deviceIds].filter((id) => !states.has(id)).map(async (deviceId) => {
      const device = store.deviceById(deviceId);
      if (!device) return;
      const saved = telemetry
        ? await store.readTelemetry(deviceId, (series) => series.latest([...STATE_KEYS]))
        : store.attributes(deviceId, 'SERVER_SCOPE', [...STATE_KEYS]);
      // A device created meanwhile keeps the state it was created with.
      if (states.has(deviceId)) return;
      const get = (key: string) => saved.find((e) => e.key === key);
      states.set(deviceId, {
        active: get('active')?.value === true, lastConnectTime: numberOf(get('lastConnectTime')),
        lastActivityTime: numberOf(get('lastActivityTime')), lastDisconnectTime: numberOf(get('lastDisconnectTime')),
        inactivityAlarmTime: numberOf(get('inactivityAlarmTime')), createdTime: device.createdTime,
      });
    }));
  }

  /** The device's timeout: its inactivityTimeout server attribute when positive, else the default. */
  function timeoutOf(deviceId: string): number {
    const [own] = store.attributes(deviceId, 'SERVER_SCOPE', [INACTIVITY_TIMEOUT]);
    const ms = numberOf(own);
    return ms > 0 ? ms : config.inactivityTimeoutMs;
  }

  const save = (saves: Saves, deviceId: string, key: string, value: number | boolean, now: number) => {
    let entries = saves.get(deviceId);
    if (!entries) saves.set(deviceId, (entries = []));
    entries.push({ key, type: typeof value === 'boolean' ? 'BOOLEAN' : 'LONG', value, ts: now });
  };

  /** Persists the saves: attributes in one transaction (skipping devices deleted meanwhile), or telemetry. */
  async function persist(saves: Saves): Promise<void> {
    if (saves.size === 0) return;
    if (!telemetry) {
      await store.write(upsertAll, saves);
      return;
    }
    await Promise.all([...saves].map(([deviceId, entries]) => new Promise<void>((resolve) => {
      // A device deleted meanwhile has nothing left to keep: its error is not a failure of the batch.
      store.writeTelemetry(deviceId, entries, () => resolve(), undefined);
    })));
  }
  function upsertAll(saves: Saves): void {
    for (const [deviceId, entries] of saves) if (store.deviceById(deviceId)) store.upsertAttributes(deviceId, 'SERVER_SCOPE', entries);
  }

  /** DefaultDeviceStateService.onDeviceConnect / onDeviceActivity / onDeviceDisconnect for a batch of marks. */
  function apply(marks: { activity: Marks; connects: Marks; disconnects: Marks }, now: number): Saves {
    const saves: Saves = new Map();
    for (const [deviceId, ts] of marks.connects) {
      const state = states.get(deviceId);
      if (state && ts > state.lastConnectTime) {
        state.lastConnectTime = ts;
        save(saves, deviceId, 'lastConnectTime', ts, now);
      }
    }
    for (const [deviceId, ts] of marks.activity) {
      const state = states.get(deviceId);
      if (!state || ts <= state.lastActivityTime) continue;
      state.lastActivityTime = ts;
      save(saves, deviceId, 'lastActivityTime', ts, now);
      if (state.active) continue;
      if (ts <= state.inactivityAlarmTime) {
        state.inactivityAlarmTime = 0;
        save(saves, deviceId, 'inactivityAlarmTime', 0, now);
      }
      state.active = true;
      save(saves, deviceId, 'active', true, now);
    }
    for (const [deviceId, ts] of marks.disconnects) {
      const state = states.get(deviceId);
      if (state && ts > state.lastDisconnectTime) {
        state.lastDisconnectTime = ts;
        save(saves, deviceId, 'lastDisconnectTime', ts, now);
      }
    }
    return saves;
  }

  const deviceState: DeviceState = {
    activity(deviceId) {
      activity.set(deviceId, Date.now());
    },
    sessionOpened(deviceId) {
      const open = (sessions.get(deviceId) ?? 0) + 1;
      sessions.set(deviceId, open);
      if (open === 1) connects.set(deviceId, Date.now());
      activity.set(deviceId, Date.now());
    },
    sessionClosed(deviceId) {
      const open = (sessions.get(deviceId) ?? 1) - 1;
      if (open > 0) return void sessions.set(deviceId, open);
      sessions.delete(deviceId);
      disconnects.set(deviceId, Date.now());
    },
    created(deviceId, createdTime) {
      const state = { active: false, lastConnectTime: 0, lastActivityTime: 0, lastDisconnectTime: 0, inactivityAlarmTime: 0, createdTime };
      states.set(deviceId, state);
      const entry: KvEntry = { key: 'active', type: 'BOOLEAN', value: false, ts: createdTime };
      if (telemetry) store.writeTelemetry(deviceId, [entry], () => undefined, undefined);
      else store.upsertAttributes(deviceId, 'SERVER_SCOPE', [entry]);
    },
    async flush() {
      const marks = { activity, connects, disconnects };
      activity = new Map();
      connects = new Map();
      disconnects = new Map();
      await started;
      await load([...marks.connects.keys(), ...marks.activity.keys(), ...marks.disconnects.keys()]);
      await persist(apply(marks, Date.now()));
    },
    async check(now = Date.now()) {
      await started;
      const saves: Saves = new Map();
      for (const [deviceId, state] of states) {
        if (!store.deviceById(deviceId)) {
          states.delete(deviceId);
          continue;
        }
        const timeout = timeoutOf(deviceId);
        // updateInactivityStateIfExpired: past the timeout, not yet reported since the last activity, and old enough.
        const expired = now >= state.lastActivityTime + timeout;
        const unreported = state.inactivityAlarmTime === 0 || state.inactivityAlarmTime <= state.lastActivityTime;
        if (!expired || !unreported || state.createdTime + timeout > now) continue;
        state.inactivityAlarmTime = now;
        save(saves, deviceId, 'inactivityAlarmTime', now, now);
        if (state.active) {
          state.active = false;
          save(saves, deviceId, 'active', false, now);
        }
      }
      await persist(saves);
    },
    async close() {
      clearInterval(flushTimer);
      clearInterval(checkTimer);
      await deviceState.flush();
    },
  };

  // The devices saved active are watched from the start, so that they go inactive even if they never come back.
  const started = store.devicesFlagged('active', telemetry ? 'TELEMETRY' : 'SERVER_SCOPE').then(load).catch(onError);
  const flushTimer = setInterval(() => void deviceState.flush().catch(onError), config.stateFlushIntervalMs).unref();
  const checkTimer = setInterval(() => void deviceState.check().catch(onError), config.stateCheckIntervalMs).unref();
  return deviceState;
}
