// What every handler needs, built once by buildApp() and passed down read-only.
import type { ServerConfig } from './config.js';
import type { LongPolls } from './long-poll.js';
import type { RpcService } from './rpc-service.js';
import type { AttributeService } from './attribute-service.js';
import type { RuleEngine } from './rule-engine.js';
import type { Store } from './store/types.js';

export interface ServerContext {
  config: Readonly<ServerConfig>;
  store: Store;
  polls: LongPolls;
  rpc: RpcService;
  attributes: AttributeService;
  rules: RuleEngine;
}
