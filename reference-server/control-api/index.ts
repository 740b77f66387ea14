// The control API: ThingsBoard's REST subset (and the dhi rules extension) by operationId, the
// bearer-JWT hook, and the plugins its routes need (multipart for OTA uploads, Swagger UI).
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { loadContract } from '../../spec/load.js';
import { createAuth } from './auth.js';
import { customerHandlers } from './customers.js';
import { deviceHandlers } from './devices.js';
import { deviceDirectoryHandlers } from './device-directory.js';
import { credentialsHandlers } from './credentials.js';
import { NOAUTH_NOT_MODELLED, notModelledHandlers, OWN_USER_NOT_MODELLED } from './not-modelled.js';
import { attributeHandlers } from './attributes.js';
import { telemetryHandlers } from './telemetry.js';
import { timeseriesHandlers } from './timeseries.js';
import { rpcHandlers } from './rpc.js';
import { otaHandlers } from './ota.js';
import { profileHandlers } from './profiles.js';
import { profileInfoHandlers } from './profile-infos.js';
import { claimingHandlers } from './claiming.js';
import { ruleHandlers } from './rules.js';
import { apiKeyHandlers } from './api-keys.js';
import { activationHandlers } from './activation.js';
import { systemHandlers } from './system.js';
import { registerDocs } from './docs.js';
import { createOtaAssignment } from './ota-assignment.js';
import type { ServerContext } from '../context.js';
import type { Handlers, RouteHandler } from '../handler.js';
import type { Authority, UserRecord } from '../store/types.js';

export interface ControlApi {
  handlers: Handlers;
  /** onRequest hook for secured routes: a JWT or an API key. */
  authenticate: onRequestHookHandler;
  /** Plugins the control API needs (Swagger UI), registered before the routes. */
  register(app: FastifyInstance): Promise<void>;
}

/** Who may call what: tenant admins everything but claiming, customer users only claiming. */
const PUBLIC = new Set(['login', 'refreshToken', 'getUserPasswordPolicy', 'checkActivateToken', 'activateUser', ...NOAUTH_NOT_MODELLED]);
const AUTHORITIES: Record<string, Authority[]> = {
  claimDevice: ['CUSTOMER_USER'],
  reclaimDevice: ['TENANT_ADMIN', 'CUSTOMER_USER'],
  getCurrentUser: ['TENANT_ADMIN', 'CUSTOMER_USER'],
  logout: ['TENANT_ADMIN', 'CUSTOMER_USER'],
  changePassword: ['TENANT_ADMIN', 'CUSTOMER_USER'],
  getTenantAdmins: [],
  getSystemVersionInfo: ['TENANT_ADMIN', 'CUSTOMER_USER'],
  ...Object.fromEntries(['saveApiKey', 'getUserApiKeys', 'updateApiKeyDescription', 'enableApiKey', 'deleteApiKey']
    .map((id): [string, Authority[]] => [id, ['TENANT_ADMIN', 'CUSTOMER_USER']])),
  ...Object.fromEntries(OWN_USER_NOT_MODELLED.map((id): [string, Authority[]] => [id, ['TENANT_ADMIN', 'CUSTOMER_USER']])),
};

export function createControlApi(ctx: ServerContext): ControlApi {
  const auth = createAuth(ctx);
  const ota = createOtaAssignment(ctx);
  const all: Handlers = {
    ...auth.handlers,
    ...customerHandlers(ctx),
    ...deviceHandlers(ctx, ota),
    ...deviceDirectoryHandlers(ctx),
    ...credentialsHandlers(ctx),
    ...attributeHandlers(ctx),
    ...telemetryHandlers(ctx),
    ...timeseriesHandlers(ctx),
    ...rpcHandlers(ctx),
    ...otaHandlers(ctx),
    ...profileHandlers(ctx, ota),
    ...profileInfoHandlers(ctx),
    ...claimingHandlers(ctx),
    ...ruleHandlers(ctx),
    ...apiKeyHandlers(ctx),
    ...activationHandlers(ctx, auth.tokenPair),
    ...systemHandlers(ctx),
    ...notModelledHandlers(),
  };
  // The guard wraps each handler without looking at its request, so the types go through unchanged.
  const handlers = Object.fromEntries(
    Object.entries(all).map(([id, handler]) => [id, PUBLIC.has(id) ? handler : auth.allow(AUTHORITIES[id] ?? ['TENANT_ADMIN'], handler as RouteHandler)]),
  ) as Handlers;

  return {
    handlers,
    authenticate: auth.authenticate,
    async register(app) {
      await auth.init();
      app.decorateRequest('user', null as unknown as UserRecord);
      await registerDocs(app, (await loadContract()).document);
    },
  };
}
