// What the event loop asks the telemetry worker besides rows to commit (telemetry-worker.ts).

/** Fold the telemetry log into the time-series tables. */
export const FOLD = 'fold';
