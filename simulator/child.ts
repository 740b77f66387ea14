// Forking one of our own modules as a child process, from sources (tests, tsx) or from dist/.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Fork the module at `moduleUrl` (an import.meta.url) with an IPC channel. */
export function forkModule(moduleUrl: string, args: string[], nodeOptions: string[] = []): ChildProcess {
  // From sources the child needs tsx's loader; the built CLI runs plain JavaScript.
  const fromSources = moduleUrl.endsWith('.ts');
  return fork(fileURLToPath(moduleUrl), args, {
    execArgv: [...(fromSources ? ['--import', 'tsx'] : []), ...nodeOptions],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
}
