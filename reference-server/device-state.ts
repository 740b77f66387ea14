// Device state as ThingsBoard's DefaultDeviceStateService keeps it: per device the keys `active`,
// `lastActivityTime` and `inactivityAlarmTime`, as server attributes (or latest telemetry with
// --persist-state-to-telemetry). A new device is saved inactive; a device request makes it active;
// once `inactivityTimeout` (the device's server attribute in ms, else --inactivity-timeout) passes
// without one it is inactive again. ThingsBoard's HTTP transport opens no session a device could
// connect or disconnect with (its sync sessions send no SessionEvent), so over HTTP there is no
// `lastConnectTime` or `lastDisconnectTime`: a request, long polls included, is activity only.
//
// As ThingsBoard, the state of every device is kept in memory (read once at start) and checked every
// --state-check-interval, so that a device never seen since a restart still gets its
// inactivityAlarmTime. The request path pays one Map write (activity). The device's entry is kept
// from one flush to the next and overwritten: a Map made afresh at each flush grew through 10,000
// devices' entries again every 3 s (Map.set 2.3 % of the event loop's samples, 1.1 % kept). As
// ThingsBoard's transport reports a device's last activity once per
// transport.sessions.report_timeout (3 s, strategy LAST), the marks become saves once per
// --activity-report-interval, in device id order, in transactions of DEVICES_PER_WRITE devices at
// most. Saves the store refuses for now (a full disk) wait for the next flush; the store's outage
// watcher logs the spell, once.
import { DeletedMeanwhile, StoreUnavailable, type KvEntry, type SavedState, type Store } from './store/types.js';
import type { ServerConfig } from './config.js';

const STATE_KEYS = ['active', 'lastActivityTime', 'inactivityAlarmTime'] as const;
export const INACTIVITY_TIMEOUT = 'inactivityTimeout';

/**
 * Device operations that are no activity: ThingsBoard's transport records activity for every device
 * message but an OTA package request (DefaultTransportService.process(GetOtaPackageRequestMsg)).
 */
export const NOT_ACTIVITY: ReadonlySet<string> = new Set(['getFirmware', 'getSoftware']);

export interface DeviceState {
  /** A device request (hot path): one Map write. */
  activity(deviceId: string): void;
  /** A device was created (inside its store write): saved inactive. */
  created(deviceId: string, createdTime: number): void;
  /** A device was deleted: forgotten. */
  deleted(deviceId: string): void;
  /** The device's inactivityTimeout server attribute was saved (its entry) or deleted (undefined). */
  timeoutChanged(deviceId: string, entry: KvEntry | undefined): void;
  /** Whether the device is active now (device infos). */
  isActive(deviceId: string): boolean;
  /** The ids of the active devices (the device infos' `active` filter). */
  activeDevices(): string[];
  /** Save what the marks since the last flush say (tests call it to read the state at once). */
  flush(): Promise<void>;
  /** Mark inactive the devices whose timeout passed (tests call it with a later `now`). */
  check(now?: number): Promise<void>;
  /** Stop the timers and save what is pending. */
  close(): Promise<void>;
}

interface State {
  active: boolean;
  lastActivityTime: number;
  inactivityAlarmTime: number;
  createdTime: number;
  /** The device's own inactivityTimeout in ms; 0: the server's. */
  ownTimeout: number;
}

type Saves = Map<string, KvEntry[]>;

/**
 * Devices whose saves go in one store write, and whose marks a flush turns into saves before it saves
 * them: the saves of 10,000 devices in one write held the event loop 28-66 ms every 3 s under their
 * telemetry; in runs of 500 (2-4 ms a write) the requests go on between them.
 */
const DEVICES_PER_WRITE = 500;

/** The saves in runs of `size` devices, in order. */
function* runsOf(saves: Saves, size: number): Generator<[string, KvEntry[]][]> {
  let run: [string, KvEntry[]][] = [];
  for (const save of saves) {
    run.push(save);
    if (run.length === size) {
      yield run;
      run = [];
    }
  }
  if (run.length > 0) yield run;
}

/** A LONG entry's value (a stored long beyond 2^53 is a bigint), else 0: ThingsBoard's getLongValue. */
const longOf = (entry: KvEntry | undefined) =>
  entry?.type === 'LONG' ? Number(entry.value) : 0;

const LONG_TEXT = /^[+-]?\d{1,18}$/;

/** DefaultTelemetrySubscriptionService.parseAsLong of the attribute's text: a long, else 0 (the default). */
function timeoutOf(entry: KvEntry | undefined): number {
  if (!entry) return 0;
  const text = String(entry.value);
  return LONG_TEXT.test(text) ? Math.max(Number(text), 0) : 0;
}

function stateFrom({ createdTime, entries }: SavedState): State {
  const get = (key: string) => entries.find((e) => e.key === key);
  const active = get('active');
  return {
    active: active?.type === 'BOOLEAN' && active.value === true,
    lastActivityTime: longOf(get('lastActivityTime')),
    inactivityAlarmTime: longOf(get('inactivityAlarmTime')),
    createdTime,
    ownTimeout: timeoutOf(get(INACTIVITY_TIMEOUT)),
  };
}

/**
 * `onError`: a batch that could not be saved for another reason than a store that cannot take
 * writes for now (logged; the request path never waits for it).
 */
export function createDeviceState(store: Store, config: Readonly<ServerConfig>, onError: (error: unknown) => void): DeviceState {
  const telemetry = config.persistStateToTelemetry;
  /** Each device's last request (ms since the epoch). */
  const marks = new Map<string, number>();
  let pending: Saves = new Map();
  let saving = Promise.resolve();
  const states = new Map<string, State>();

  const timeoutOfState = (state: State) => (state.ownTimeout > 0 ? state.ownTimeout : config.inactivityTimeoutMs);
  const activeAt = (state: State, now: number) => now < state.lastActivityTime + timeoutOfState(state);

  /**
   * The device's state. Every device is read at start and every new one is `created`; a device
   * written to the store directly (tests, bench fleets) is read from its server attributes, with no
   * state of its own as telemetry (that read would wait for the telemetry log).
   */
  function stateOf(deviceId: string): State | undefined {
    const known = states.get(deviceId);
    if (known) return known;
    const device = store.deviceById(deviceId);
    if (!device) return undefined;
    const entries = store.attributes(deviceId, 'SERVER_SCOPE', telemetry ? [INACTIVITY_TIMEOUT] : [...STATE_KEYS, INACTIVITY_TIMEOUT]);
    const state = stateFrom({ deviceId, createdTime: device.createdTime, entries });
    states.set(deviceId, state);
    return state;
  }

  const save = (deviceId: string, key: string, value: number | boolean, now: number) => {
    let entries = pending.get(deviceId);
    if (!entries) pending.set(deviceId, (entries = []));
    entries.push({ key, type: typeof value === 'boolean' ? 'BOOLEAN' : 'LONG', value, ts: now });
  };

  /** updateActivityState: the activity is saved, and an inactive device becomes active. */
  function activate(deviceId: string, state: State, ts: number, now: number): void {
    state.lastActivityTime = ts;
    save(deviceId, 'lastActivityTime', ts, now);
    if (state.active) return;
    if (ts <= state.inactivityAlarmTime) {
      state.inactivityAlarmTime = 0;
      save(deviceId, 'inactivityAlarmTime', 0, now);
    }
    state.active = true;
    save(deviceId, 'active', true, now);
  }

  /** updateInactivityStateIfExpired: past the timeout, not yet reported since the last activity, and old enough. */
  function expire(deviceId: string, state: State, now: number): void {
    const timeout = timeoutOfState(state);
    const unreported = state.inactivityAlarmTime === 0 || state.inactivityAlarmTime <= state.lastActivityTime;
    if (activeAt(state, now) || !unreported || state.createdTime + timeout > now) return;
    state.inactivityAlarmTime = now;
    save(deviceId, 'inactivityAlarmTime', now, now);
    state.active = false;
    save(deviceId, 'active', false, now);
  }

  /** checkAndUpdateState (at start and when a timeout changes): expire an active device, revive one active by the clock. */
  function settle(deviceId: string, state: State, now: number): void {
    if (state.active) expire(deviceId, state, now);
    else if (activeAt(state, now)) activate(deviceId, state, state.lastActivityTime, now);
  }

  function upsertAll(saves: Iterable<[string, KvEntry[]]>): void {
    for (const [deviceId, entries] of saves) {
      try {
        store.upsertAttributes(deviceId, 'SERVER_SCOPE', entries);
      } catch (error) {
        // A device deleted meanwhile has nothing left to keep.
        if (!(error instanceof DeletedMeanwhile)) throw error;
      }
    }
  }

  /** Saves of the failed batch go back in front of any newer ones, for the next batch. */
  function requeue(deviceId: string, entries: KvEntry[]): void {
    pending.set(deviceId, [...entries, ...(pending.get(deviceId) ?? [])]);
  }

  async function persist(saves: Saves): Promise<void> {
    if (!telemetry) {
      for (const run of runsOf(saves, DEVICES_PER_WRITE)) {
        try {
          await store.write(upsertAll, run);
        } catch (error) {
          if (!(error instanceof StoreUnavailable)) onError(error);
          else for (const [deviceId, entries] of run) requeue(deviceId, entries);
        }
      }
      return;
    }
    await Promise.all([...saves].map(([deviceId, entries]) => new Promise<void>((resolve) => {
      store.writeTelemetry(deviceId, entries, (error) => {
        // A device deleted meanwhile fails its write: nothing to keep, and not a failure of the batch.
        if (error instanceof StoreUnavailable) requeue(deviceId, entries);
        resolve();
      }, undefined);
    })));
  }

  /** Saves what is pending, one batch at a time (a batch put back goes ahead of newer saves). */
  function savePending(): Promise<void> {
    saving = saving.then(() => {
      const saves = pending;
      pending = new Map();
      return saves.size > 0 ? persist(saves) : undefined;
    });
    return saving;
  }

  const deviceState: DeviceState = {
    activity(deviceId) {
      marks.set(deviceId, Date.now());
    },
    created(deviceId, createdTime) {
      states.set(deviceId, { active: false, lastActivityTime: 0, inactivityAlarmTime: 0, createdTime, ownTimeout: 0 });
      // Inside the device's own write: the device and its state are one transaction.
      if (telemetry) save(deviceId, 'active', false, createdTime);
      else store.upsertAttributes(deviceId, 'SERVER_SCOPE', [{ key: 'active', type: 'BOOLEAN', value: false, ts: createdTime }]);
    },
    deleted(deviceId) {
      states.delete(deviceId);
      marks.delete(deviceId);
      pending.delete(deviceId);
    },
    timeoutChanged(deviceId, entry) {
      const state = stateOf(deviceId);
      if (!state) return;
      state.ownTimeout = timeoutOf(entry);
      settle(deviceId, state, Date.now());
    },
    isActive: (deviceId) => states.get(deviceId)?.active === true,
    activeDevices: () => [...states].filter(([, state]) => state.active).map(([id]) => id),
    async flush() {
      await started;
      const now = Date.now();
      // The devices with a request since their last save, in the order of device ids, by which the
      // store keeps attributes: a run of them then rewrites the pages of one stretch of the table,
      // where in the order of their first requests it rewrote a page for each device across all of
      // it (10,000 devices: the loop's commits of device state 172-272 -> 68-97 ms in 5 s; the bytes
      // written a request, medians, 1.15 -> 0.85 KB). Only these are sorted, as many as requests in
      // an interval allow (10,000 ids: 3-5 ms): all the marks of 100,000 devices took 56-92 ms.
      const due: string[] = [];
      for (const [deviceId, ts] of marks) {
        const state = stateOf(deviceId);
        if (!state) marks.delete(deviceId);
        else if (ts > state.lastActivityTime) due.push(deviceId);
      }
      let marked = 0;
      for (const deviceId of due.sort()) {
        const state = states.get(deviceId);
        // Deleted while an earlier run was saved.
        if (!state) continue;
        activate(deviceId, state, marks.get(deviceId)!, now);
        // Each run's saves go before the next run's marks: the loop is held for one run at a time.
        if (++marked % DEVICES_PER_WRITE === 0) await savePending();
      }
      await savePending();
    },
    async check(now = Date.now()) {
      await started;
      for (const [deviceId, state] of states) expire(deviceId, state, now);
      await savePending();
    },
    async close() {
      clearInterval(flushTimer);
      clearInterval(checkTimer);
      await deviceState.flush();
    },
  };

  /** The whole fleet, once: ThingsBoard's onAddedPartitions and checkAndUpdateState. */
  async function load(): Promise<void> {
    const keys = telemetry ? [...STATE_KEYS] : [...STATE_KEYS, INACTIVITY_TIMEOUT];
    const saved = await store.savedStates(keys, telemetry ? 'TELEMETRY' : 'SERVER_SCOPE');
    const timeouts = telemetry ? await store.savedStates([INACTIVITY_TIMEOUT], 'SERVER_SCOPE') : [];
    const loaded = new Map(saved.map((s) => [s.deviceId, stateFrom(s)]));
    for (const { deviceId, entries } of timeouts) {
      const state = loaded.get(deviceId);
      if (state) state.ownTimeout = timeoutOf(entries[0]);
    }
    const now = Date.now();
    for (const [deviceId, state] of loaded) {
      // A device created or seen while the fleet was read is known better than its saved state.
      if (states.has(deviceId)) continue;
      states.set(deviceId, state);
      settle(deviceId, state, now);
    }
  }
  const started = load().catch(onError);

  const flushTimer = setInterval(() => void deviceState.flush().catch(onError), config.activityReportIntervalMs).unref();
  const checkTimer = setInterval(() => void deviceState.check().catch(onError), config.stateCheckIntervalMs).unref();
  return deviceState;
}
