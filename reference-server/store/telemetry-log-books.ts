// The telemetry ingest log's books (Store.foldTelemetryLog): the rows the group commit gathers into
// the log and the folds of the whole log that it commits, counted as it hands them to the writer
// (sqlite-telemetry.ts), which it gets through this in place of the writer. Counting only: the
// writer keeps its own books of what waits and when a fold is due.
import type { BufferedWrites } from './buffered-writes.js';
import type { FoldScope, PackedRows } from './sqlite-telemetry-log.js';
import type { TelemetryMessage } from './sqlite-telemetry.js';
import type { TelemetryLogBooks } from './types.js';

type TelemetryBuffer = BufferedWrites<TelemetryMessage, FoldScope, PackedRows>;

export function countTelemetryLog(writer: TelemetryBuffer): { buffer: TelemetryBuffer; books(): TelemetryLogBooks } {
  let rows = 0;
  let folds = 0;
  const buffer: TelemetryBuffer = {
    add(message) {
      // add() throws for a message it refuses, which gathers no row.
      writer.add(message);
      rows += message.entries.length;
    },
    folded(scope, ok) {
      writer.folded(scope, ok);
      if (ok && 'all' in scope) folds++;
    },
    flush: () => writer.flush(),
    take: () => writer.take(),
    rolledBack: () => writer.rolledBack(),
    dueFold: () => writer.dueFold(),
    needsFold: (scope) => writer.needsFold(scope),
    covering: (scopes) => writer.covering(scopes),
    fold: (scope) => writer.fold(scope),
  };
  return { buffer, books: () => ({ rows, folds }) };
}
