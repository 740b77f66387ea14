// A full garbage collection on demand, for the moment a fleet is set up and its load's clock has
// not started: what the set-up made and keeps (devices, thousands of sockets) moves to the old
// generation then, instead of being copied by the first minor collections of the load (pauses of
// ~10 ms at 1,000 mixed devices, in the first planned sends). V8 gives gc() only to contexts made
// while --expose-gc is set, so one is made for it, once (a process started with the flag has it
// already), and the flag is set back: contexts made later (an embedding program's) are as before.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc = (globalThis as { gc?: () => void }).gc;

export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    try {
      gc = runInNewContext('gc') as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  gc();
}
