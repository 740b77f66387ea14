// Rows of the telemetry log named as runs of consecutive rowids: the row writer's books give them
// (row-writer-books.ts), and a fold joins each as a range of rowids (sqlite-telemetry-log.ts).

/**
 * Rows of the log as runs of consecutive rowids, each one integer: its first rowid times RUN plus its
 * length (1 to RUN - 1). A message's rows are appended together, so a fleet's fold names a third of
 * its rows' rowids with 3-key messages, and one device's a few. Listing every rowid, the JSON array's
 * text and json_each's parse of it took ~40 ms of a fold of 200,000 rows at 10,000 devices (~260 ms);
 * one device's fold went from 0.51 to 0.39 µs a row.
 */
export const RUN = 64;
/** Rowids up to this pack into a run exactly (a double's integers end at 2^53). */
export const MAX_RUN_ROWID = 2 ** 53 / RUN - 1;

/** Runs of rowids given in order. */
export interface RunList {
  add(rowid: number): void;
  /** The runs, as a JSON array. */
  json(): string;
}

export function createRunList(): RunList {
  const runs: number[] = [];
  /** The run being gathered: its first rowid and its length (0: none yet). */
  let start = 0;
  let length = 0;
  return {
    add(rowid) {
      if (length > 0 && length < RUN - 1 && start + length === rowid) {
        length++;
        return;
      }
      if (length > 0) runs.push(start * RUN + length);
      start = rowid;
      length = 1;
    },
    json() {
      if (length > 0) runs.push(start * RUN + length);
      length = 0;
      return JSON.stringify(runs);
    },
  };
}
