// A server in a child process of its own (the bench's servers, the calibration target), so that it
// shares no event loop with the load that measures it. The parent forks it, waits for its
// `listening` message, asks it questions over IPC and stops it with SIGTERM; the child starts its
// server, announces it, answers, and stops on SIGTERM or when the parent goes away.
import { forkModule } from './child.js';

/** A message between parent and child: `M`, the child's, holds its `listening` message and its answers. */
type Message = { type: string };
type Listening<M extends Message> = Extract<M, { type: 'listening'; url: string }>;
type Failed = { type: 'error'; message: string };

export interface ChildServer<M extends Message> {
  /** The child's `listening` message: its URL and whatever else it announced. */
  listening: Listening<M>;
  /** Ask the child; resolves with its answer of the same type (rejects if the child exits first, or fails to answer). */
  ask<T extends M['type']>(type: T): Promise<Extract<M, { type: T }>>;
  /** SIGTERM; resolves once the process has gone. */
  close(): Promise<void>;
}

/** Fork `moduleUrl` with `args` (its entry point calls serveInChild); `name` words the errors ("the calibration target"). */
export function forkServer<M extends Message>(name: string, moduleUrl: string, args: string[], nodeOptions: string[] = []): Promise<ChildServer<M>> {
  const child = forkModule(moduleUrl, args, nodeOptions);
  const exited = (code: number | null) => new Error(`${name} exited with code ${code}`);
  const ask = <T extends M['type']>(type: T) =>
    new Promise<Extract<M, { type: T }>>((resolve, reject) => {
      const onMessage = (message: M | Failed) => {
        if (message.type === 'error') {
          settle();
          return reject(new Error(`${name} could not answer ${type}: ${(message as Failed).message}`));
        }
        if (message.type !== type) return;
        settle();
        resolve(message as Extract<M, { type: T }>);
      };
      const onExit = (code: number | null) => {
        settle();
        reject(exited(code));
      };
      const settle = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ type });
    });
  const close = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.removeAllListeners('exit');
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(exited(code)));
    child.once('message', (message: M | Failed) => {
      if (message.type === 'error') return reject(new Error(`${name} failed: ${(message as Failed).message}`));
      if (message.type !== 'listening') return;
      resolve({ listening: message as Listening<M>, ask, close });
    });
  });
}

export interface ServingChild<M extends Message> {
  listening: Listening<M>;
  /** The answer to the parent's question of this type, now or once it is known; undefined: no answer. */
  answer(type: string): M | Promise<M> | undefined;
  /** What to do before the process exits. */
  close?(): Promise<void>;
}

const failed = (error: Error): Failed => ({ type: 'error', message: error.stack ?? String(error) });

/** The child's side: start the server, announce it, answer the parent, stop on SIGTERM or when the parent goes. */
export async function serveInChild<M extends Message>(start: () => Promise<ServingChild<M>>): Promise<void> {
  try {
    const server = await start();
    process.send?.(server.listening);
    process.on('message', (message: Message) => {
      const answer = server.answer(message.type);
      if (answer) void Promise.resolve(answer).then((reply) => process.send?.(reply), (error: Error) => process.send?.(failed(error)));
    });
    const stop = () => void Promise.resolve(server.close?.()).finally(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('disconnect', stop);
  } catch (error) {
    process.send?.(failed(error as Error));
    process.exit(1);
  }
}
