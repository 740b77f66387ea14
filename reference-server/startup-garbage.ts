// One full garbage collection once the server has built what it serves with, before it listens.
// Start-up compiles hundreds of schemas and serializers (Ajv, fast-json-stringify), whose generated
// code gives thousands of short-lived objects distinct first property names (`validate12`,
// `__fjs_root_391`, ...). V8 keeps a transition to each from the map of `{}` until a full collection
// clears the dead ones, and that map holds at most 1,536: once it is full, every object that later gets
// a first property it has no transition for (a request's headers object) builds new maps each time.
// For dhi serve that was 16,000-20,000 instructions more a telemetry POST (callgrind, 1 and 100
// devices: Node's headers getter storing into new maps) until the heap next needed a full collection.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Runs a full garbage collection with V8's `gc`: the process's own (--expose-gc) or one taken from a context made while it is exposed. */
export function collectStartupGarbage(): void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed();
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  gc();
}
