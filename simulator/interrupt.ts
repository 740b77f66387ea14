// Ctrl-C during a simulation (dhi simulate, dhi demo): say so, let the run stop in order (calls in
// flight answered, reports written, the devices it created deleted); a second Ctrl-C quits at once.

export interface Interrupt {
  signal: AbortSignal;
  /** Stop listening for Ctrl-C (the run is over). */
  dispose(): void;
}

export function interruptOnSigint(print: (text: string) => void): Interrupt {
  const controller = new AbortController();
  const quit = () => process.exit(130);
  const onSigint = () => {
    print('\ninterrupted: stopping the run, deleting its devices and writing what was measured (Ctrl-C again to quit at once)\n');
    controller.abort();
    process.once('SIGINT', quit);
  };
  process.once('SIGINT', onSigint);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSigint);
      process.off('SIGINT', quit);
    },
  };
}
