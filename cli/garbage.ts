// Every full garbage collection dhi asks for: the server's before it listens, the simulator's before
// its load's clock starts, `dhi bench`'s servers' before their memory is read (the callers say why).
// V8 gives gc() only to contexts made while --expose-gc is set, so one is made for it, once (a process
// started with the flag has it already), and the flag is set back: contexts made later (an embedding
// program's) are as before.
//
// A tick stays queued while the collection runs. process.nextTick builds each tick's object with a
// literal of computed keys, whose feedback V8 keeps as the maps it saw, weakly. A full collection
// while no tick object is alive frees those maps; the next tick then finds the feedback empty and
// V8 marks it megamorphic, for good, so that every later tick defines its properties in the runtime.
// For dhi serve that was ~1.9 µs of the event loop's ~28 a telemetry POST (perf: 6.8 % of its samples
// in the runtime's DefineKeyedOwnPropertyInLiteral, under nextTick; none with the tick queued).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc = (globalThis as { gc?: () => void }).gc;

const noop = () => {};

export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    try {
      gc = runInNewContext('gc') as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  process.nextTick(noop);
  gc();
}
