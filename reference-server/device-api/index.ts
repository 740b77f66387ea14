// The handlers of the device API (operations 1-10), by operationId.
import { telemetryHandlers } from './telemetry.js';
import { attributeHandlers } from './attributes.js';
import { rpcHandlers } from './rpc.js';
import { claimHandlers } from './claim.js';
import { provisionHandlers } from './provision.js';
import { firmwareHandlers } from './firmware.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';

export function deviceApiHandlers(ctx: ServerContext): Handlers {
  return {
    ...telemetryHandlers(ctx),
    ...attributeHandlers(ctx),
    ...rpcHandlers(ctx),
    ...claimHandlers(ctx),
    ...provisionHandlers(ctx),
    ...firmwareHandlers(ctx),
  };
}
