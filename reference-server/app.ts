// buildApp(config): the Fastify application of the reference server. It never listens.
import Fastify, { type FastifyBodyParser, type FastifyInstance, type onRequestHookHandler } from 'fastify';
import type { DestinationStream } from 'pino';
import { loadContract, type Operation } from '../spec/load.js';
import { validateConfig, type ServerConfig } from './config.js';
import { badRequest, errorBody, errorHandler, ErrorCode, SHUTTING_DOWN } from './errors.js';
import { parseJsonBody } from './json-body.js';
import { bindingError } from './binding-order.js';
import { createLongPolls } from './long-poll.js';
import { createDeviceState, NOT_ACTIVITY } from './device-state.js';
import { createRpcService } from './rpc-service.js';
import { createAttributeService } from './attribute-service.js';
import { createRuleEngine } from './rule-engine.js';
import { createSqliteStore } from './store/sqlite.js';
import { deviceApiHandlers } from './device-api/index.js';
import { createControlApi } from './control-api/index.js';
import { registerUploadRoute, UPLOAD_PATH } from './control-api/upload.js';
import { registerTextBodyRoutes } from './text-body.js';
import { createUnmodelled } from './control-api/not-modelled.js';
import { asksForToken } from './control-api/token-paths.js';
import { limitFor } from './payload-limits.js';
import { methodsByPath, registerRoutes } from './routes.js';
import { createBodyValidator } from './validation.js';
import { debugRequestLogs, logSerializers, logsRequests, staticSegmentsOf } from './logging.js';
import { lingerOnClose } from './lingering-close.js';
import type { ServerContext } from './context.js';
import { createServerMetrics, type ServerMetrics } from './metrics.js';
import type { DeviceRecord, Store } from './store/types.js';

declare module 'fastify' {
  interface FastifyInstance {
    dhi: ServerContext;
  }
}

export interface BuildOptions {
  /** Use this store instead of opening config.db (tests reuse one across restarts). */
  store?: Store;
  /** Where the log lines go (stdout by default). */
  logStream?: DestinationStream;
  /** The metrics of config.metrics, when the caller made them (to hand their hook to its store too). */
  metrics?: ServerMetrics;
}

/** The store of config.db, with the server's TTL and the metrics' hook. */
export const openStore = (config: Readonly<ServerConfig>, metrics?: ServerMetrics): Store =>
  createSqliteStore(config.db, { onCommitBatch: metrics?.commitBatch, ttlSeconds: config.ttlSeconds, rpcTtlSeconds: config.rpcTtlSeconds });

export async function buildApp(input: Partial<ServerConfig> = {}, options: BuildOptions = {}): Promise<FastifyInstance> {
  const config = validateConfig(input);
  const contract = await loadContract();
  const metrics = config.metrics ? (options.metrics ?? createServerMetrics()) : undefined;
  const store = options.store ?? openStore(config, metrics);
  const deviceState = createDeviceState(store, config, (error) => app.log.error({ err: error }, 'saving device state failed'));
  const polls = createLongPolls();
  const ctx: ServerContext = {
    config,
    listening: {},
    store,
    polls,
    deviceState,
    rpc: createRpcService(store, polls),
    attributes: createAttributeService(store, polls, deviceState),
    rules: createRuleEngine(store),
  };

  const requestLines = logsRequests(config.logLevel);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: logSerializers(staticSegmentsOf(contract.operations.map((op) => op.path))),
      stream: options.logStream,
    },
    // Requests are logged at debug, not twice per request at info.
    logController: debugRequestLogs(requestLines),
    bodyLimit: Math.max(...config.payloadLimits.map((l) => l.bytes)),
    // Connection timeouts are set per listener (listeners.ts); a long poll outlives them.
    forceCloseConnections: 'idle',
    exposeHeadRoutes: false,
    // Router errors (bad percent-encoding, a path parameter too long) answer our error body too.
    frameworkErrors: errorHandler,
    // Requests that arrive while closing get ThingsBoard's error body (the onRequest hook below).
    return503OnClosing: false,
    // The contract's longest path parameter (an access token, up to 256); longer is 414.
    routerOptions: { maxParamLength: 256 },
  });
  // A child logger (with the request id) per request only pays when request lines are logged; the
  // error lines of other levels carry the request itself. The logger is its own child then, rather
  // than Fastify being given a childLoggerFactory: Fastify checks the logger a custom factory returns
  // method by method on every request.
  if (!requestLines) app.log.child = () => app.log;
  app.decorate('dhi', ctx);
  app.decorateRequest('device', null as unknown as DeviceRecord);
  app.decorateRequest('rawBody', null);
  metrics?.register(app, polls, ctx.rpc);
  app.setValidatorCompiler(createBodyValidator());
  app.setErrorHandler(errorHandler);

  // Devices send JSON with any content type (curl's default is form-urlencoded); all of it is parsed
  // as JSON. Multipart (OTA upload) registers its own parser.
  app.removeAllContentTypeParsers();
  // JSON text is UTF-8 (RFC 8259): invalid bytes are a 400, not silently replaced by U+FFFD.
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const parseJson: FastifyBodyParser<Buffer> = (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      return done(badRequest('Invalid JSON: the body is not valid UTF-8'), undefined);
    }
    request.rawBody = text;
    try {
      done(null, parseJsonBody(text));
    } catch (error) {
      done(error as Error, undefined);
    }
  };
  app.addContentTypeParser('*', { parseAs: 'buffer' }, parseJson);
  // The same parser by name: Fastify caches the parser of a named type, while the catch-all makes it
  // parse the Content-Type header again on every request.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseJson);

  /** `activity`: the request counts as the device's activity (device-state.ts). */
  const authenticateDevice = (activity: boolean): onRequestHookHandler => (request, reply, done) => {
    const device = store.deviceByToken((request.params as { accessToken: string }).accessToken);
    if (!device) {
      const unbound = bindingError(request);
      if (unbound) return done(unbound);
      reply.code(401).send(errorBody(401, ErrorCode.AUTHENTICATION, 'Invalid access token'));
      return;
    }
    request.device = device;
    if (activity) deviceState.activity(device.id);
    done();
  };
  const deviceHooks = { activity: authenticateDevice(true), quiet: authenticateDevice(false) };

  const control = createControlApi(ctx);
  await control.register(app);
  const handlers = { ...deviceApiHandlers(ctx), ...control.handlers };
  const hooks = { device: (id: string) => (NOT_ACTIVITY.has(id) ? deviceHooks.quiet : deviceHooks.activity), user: control.authenticate };
  const isUpload = (op: Operation) => op.method === 'post' && op.path === UPLOAD_PATH;
  const isText = (op: Operation) => op.requestBody?.contentType === 'text/plain';
  registerRoutes(app, contract.operations.filter((op) => !isUpload(op) && !isText(op)), handlers, hooks, config.payloadLimits);
  await registerUploadRoute(app, limitFor(UPLOAD_PATH, config.payloadLimits), (context) =>
    registerRoutes(context, contract.operations.filter(isUpload), handlers, hooks, config.payloadLimits));
  await registerTextBodyRoutes(app, (context) =>
    registerRoutes(context, contract.operations.filter(isText), handlers, hooks, config.payloadLimits));

  const allowed = methodsByPath(contract);
  const unmodelled = createUnmodelled();
  app.setNotFoundHandler((request, reply) => {
    // ThingsBoard has it and dhi does not model it: 501 naming what is left out.
    const notModelled = unmodelled(request.method, request.url);
    if (notModelled) return reply.code(501).send(errorBody(501, notModelled.errorCode, notModelled.message));
    const methods = allowed(request.url);
    if (methods) {
      reply.code(405).header('allow', methods.join(', '));
      return reply.send(errorBody(405, ErrorCode.BAD_REQUEST_PARAMS, `Request method '${request.method}' is not supported`));
    }
    return reply.code(404).send(errorBody(404, ErrorCode.ITEM_NOT_FOUND, `No endpoint ${request.method} ${request.url.split('?')[0]}`));
  });

  // A body the server refuses (401, 413, ...) is not read to the end: the answer goes out with
  // Connection: close and the connection is dropped after a lingering close (lingering-close.ts). While closing, every answer
  // closes its connection so that both listeners drain, and a request that arrives on a keep-alive
  // connection is answered 503 rather than left to a reset (listeners.ts drain()).
  let closing = false;
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) reply.code(503).send(errorBody(503, ErrorCode.GENERAL, SHUTTING_DOWN));
    // A path no route took is answered below (404, 405, 501) only after ThingsBoard's security
    // filter would have let it through: without a token, 401 first (token-paths.ts).
    else if (request.is404 && asksForToken(request.url)) control.authenticate.call(app, request, reply, done);
    else done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && !request.raw.complete) {
      reply.header('connection', 'close');
      lingerOnClose(request.raw.socket);
    } else if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // Open polls are answered before the listener closes (408: clients re-poll elsewhere).
  app.addHook('preClose', async () => {
    closing = true;
    ctx.polls.endAll();
    await ctx.rpc.close();
  });
  // A store that cannot take writes is one warning when it begins and one when it ends, not a line
  // per refused request (errors.ts answers each 503).
  const unwatch = store.watchOutages((outage) => {
    if (outage.state === 'began') {
      app.log.warn(`the store (${config.db}) cannot take writes: ${outage.error.message}; writes answer 503 until it can, reads go on`);
    } else {
      app.log.warn(`the store (${config.db}) takes writes again, after ${(outage.ms / 1000).toFixed(1)} s and ${outage.refused} refused writes`);
    }
  });
  app.addHook('onClose', async () => {
    await deviceState.close();
    unwatch();
    if (!options.store) await store.close();
  });
  return app;
}
