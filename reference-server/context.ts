// What every handler needs, built once by buildApp() and passed down read-only.
import type { ServerConfig } from './config.js';
import type { LongPolls } from './long-poll.js';
import type { RpcService } from './rpc-service.js';
import type { AttributeService } from './attribute-service.js';
import type { RuleEngine } from './rule-engine.js';
import type { Store } from './store/types.js';
import type { DeviceState } from './device-state.js';

/** The ports the listeners are bound to, set once they listen (server.ts); empty in app.inject tests. */
export interface Listening {
  http?: number;
  https?: number;
}

export interface ServerContext {
  config: Readonly<ServerConfig>;
  listening: Listening;
  store: Store;
  polls: LongPolls;
  /** Device activity and connectivity (ThingsBoard's device state service). */
  deviceState: DeviceState;
  rpc: RpcService;
  attributes: AttributeService;
  rules: RuleEngine;
}
