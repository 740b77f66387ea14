// `dhi serve`: turn CLI options into a validated config, start, and stop cleanly on SIGTERM/SIGINT.
import { ConfigError, type ServerConfig } from './config.js';
import { startServer } from './server.js';

export interface ServeOptions {
  host?: string;
  port?: number;
  httpsPort?: number;
  backlog?: number;
  tlsCert?: string;
  tlsKey?: string;
  db?: string;
  defaultPollTimeout?: number;
  maxPollTimeout?: number;
  clientRpcTimeout?: number;
  claimDuration?: number;
  typeCast?: boolean;
  adminPassword?: string;
  jwtSecret?: string;
  logLevel?: string;
}

export function configFromOptions(options: ServeOptions): Partial<ServerConfig> {
  return {
    host: options.host,
    port: options.port,
    httpsPort: options.httpsPort,
    backlog: options.backlog,
    tlsCert: options.tlsCert,
    tlsKey: options.tlsKey,
    db: options.db,
    defaultPollTimeoutMs: options.defaultPollTimeout,
    maxPollTimeoutMs: options.maxPollTimeout,
    clientRpcTimeoutMs: options.clientRpcTimeout,
    claimDurationMs: options.claimDuration,
    typeCast: options.typeCast,
    adminPassword: options.adminPassword,
    jwtSecret: options.jwtSecret,
    logLevel: options.logLevel as ServerConfig['logLevel'] | undefined,
  };
}

export async function runServe(options: ServeOptions): Promise<void> {
  let server;
  try {
    server = await startServer(configFromOptions(options));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`dhi serve: ${error.message}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
  console.log(`dhi serve: device API on ${server.httpUrl}${server.httpsUrl ? ` and ${server.httpsUrl}` : ''}`);
  const stop = async (signal: string) => {
    server.app.log.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
