// Users and their JWTs: the default tenant admin, login, the hook that authenticates a control API
// request (a JWT, `Bearer <jwt>`, or an API key, `ApiKey <value>`, in X-Authorization or else
// Authorization, as ThingsBoard's two filters read them), user tokens, changing a password, and the
// permission guard (tenant admins may do everything but claim; customer users only claim). As
// ThingsBoard's TokenOutdatingService, a token issued (to the second) before its user changed
// password or had the credentials disabled, or before its session logged out, is refused: an access
// token 401 errorCode 11, a refresh token 401 errorCode 10.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { ApiError, badRequest, errorBody, forbidden, notFound, unauthorized } from '../errors.js';
import { userJson } from './customers.js';
import { createJwtCodec, type JwtClaims, type JwtCodec } from './jwt.js';
import { API_KEY_PREFIX, apiKeyUser } from './api-keys.js';
import { NULL_UUID, TENANT_ID } from './entities.js';
import { hashPassword, PASSWORD_POLICY, policyViolation, verifyPassword } from './passwords.js';
import type { ServerContext } from '../context.js';
import type { Handlers, RouteHandler } from '../handler.js';
import type { Authority, UserRecord } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user a JWT or an API key authenticated (control API routes only). */
    user: UserRecord;
  }
}

export const DEFAULT_ADMIN = 'tenant@thingsboard.org';
const JWT_SECRET_SETTING = 'jwtSecret';
const REFRESH_TTL_SECONDS = 604_800;
const ISSUER = 'dhi';
const BEARER = /^Bearer\s+(\S+)$/i;
/** A well-formed hash no password matches in practice (all-zero salt and key). */
const UNUSABLE_HASH = `${'00'.repeat(16)}:${'00'.repeat(32)}`;

export interface Auth {
  /** Creates the default admin (or resets its password to the configured one) and the JWT secret. */
  init(): Promise<void>;
  authenticate: onRequestHookHandler;
  /** The JWT pair of a user, as login answers it. */
  tokenPair(user: UserRecord): Schema<'JwtPair'>;
  /** Wrap a handler so that only these authorities reach it (403 otherwise). */
  allow(authorities: Authority[], handler: RouteHandler): RouteHandler;
  handlers: Handlers;
}

export function createAuth({ config, store }: ServerContext): Auth {
  let jwt: JwtCodec | undefined;
  const codec = (): JwtCodec => jwt!;

  /** ThingsBoard's token extractors: X-Authorization, else Authorization. */
  const headerOf = (request: FastifyRequest): string | undefined => {
    const header = request.headers['x-authorization'] ?? request.headers.authorization;
    return typeof header === 'string' ? header : undefined;
  };
  const bearerOf = (request: FastifyRequest): string | undefined => BEARER.exec(headerOf(request) ?? '')?.[1];

  /** JwtTokenFactory's access token (with the user's names, state, tenant and customer) and refresh token. */
  const accessToken = (user: UserRecord, sessionId: string) => codec().sign({
    sub: user.email, userId: user.id, scopes: [user.authority], sessionId, firstName: user.firstName,
    lastName: user.lastName, enabled: store.userCredentialsEnabled(user.id), isPublic: false, tenantId: TENANT_ID,
    customerId: user.customerId ?? NULL_UUID,
  }, config.jwtTtlSeconds);
  const refreshToken = (user: UserRecord, sessionId: string) => codec().sign({
    sub: user.email, userId: user.id, scopes: ['REFRESH_TOKEN'], sessionId, isPublic: false, jti: randomUUID(),
  }, REFRESH_TTL_SECONDS);

  /** The user of a request's JWT, or the 401 to answer. */
  const jwtUser = (request: FastifyRequest): UserRecord | ApiError => {
    const token = bearerOf(request);
    const check = token ? codec().verify(token) : undefined;
    const claims = check?.ok && check.claims.scopes.length === 1 && check.claims.scopes[0] !== 'REFRESH_TOKEN' ? check.claims : undefined;
    const user = claims && store.userById(claims.userId);
    if (user && !outdated(claims)) return user;
    // ThingsBoard: JWT_TOKEN_EXPIRED (11) for an expired or outdated token, AUTHENTICATION (10) otherwise.
    const expired = (check && !check.ok && check.expired) || user !== undefined;
    return expired ? new ApiError(401, 11, 'Token has expired') : unauthorized('Authentication failed');
  };

  /** DefaultTokenOutdatingService.isOutdated: issued in an earlier second than the user's or the session's mark. */
  const outdated = (claims: JwtClaims): boolean => [claims.userId, claims.sessionId].some((id) => {
    const at = id === undefined ? undefined : store.tokensOutdatedAt(id);
    return at !== undefined && claims.iat < Math.floor(at / 1000);
  });
  const outdate = (id: string) => store.write(() => store.outdateTokens(id, Date.now()));
  const notActive = () => unauthorized('User account is not active');

  const auth: Auth = {
    async init() {
      let secret = config.jwtSecret;
      if (!secret) {
        // 512 bits, the key size of HS512 (ThingsBoard's JwtTokenFactory.KEY_LENGTH).
        secret = store.setting(JWT_SECRET_SETTING) ?? randomBytes(64).toString('base64url');
        if (!store.setting(JWT_SECRET_SETTING)) await store.write(() => store.setSetting(JWT_SECRET_SETTING, secret!));
      }
      jwt = createJwtCodec(Buffer.from(secret), ISSUER);
      const admin = store.userByEmail(DEFAULT_ADMIN);
      if (admin && (await verifyPassword(config.adminPassword, admin.passwordHash))) return;
      const passwordHash = await hashPassword(config.adminPassword);
      await store.write(() => {
        if (admin) store.updateUser({ ...admin, passwordHash });
        else store.insertUser({
          id: randomUUID(), email: DEFAULT_ADMIN, authority: 'TENANT_ADMIN', customerId: null, firstName: null,
          lastName: null, phone: null, additionalInfo: null, version: 1, passwordHash, createdTime: Date.now(),
        });
      });
    },

    authenticate(request, reply, done) {
      const header = headerOf(request);
      const user = header?.startsWith(API_KEY_PREFIX) ? apiKeyUser(store, header.slice(API_KEY_PREFIX.length)) : jwtUser(request);
      if (user instanceof ApiError) {
        reply.code(401).send(errorBody(401, user.errorCode, user.message));
        return;
      }
      request.user = user;
      done();
    },

    tokenPair(user) {
      const sessionId = randomUUID();
      return { token: accessToken(user, sessionId), refreshToken: refreshToken(user, sessionId) };
    },

    allow: (authorities, handler) => (request, reply) => {
      if (!authorities.includes(request.user.authority)) {
        throw forbidden("You don't have permission to perform this operation!");
      }
      return handler(request, reply);
    },

    handlers: {
      async login(request, reply) {
        const { username, password } = request.body;
        const user = store.userByEmail(username);
        // SystemSecurityService.validateUserCredentials: disabled credentials before the password.
        if (user && !store.userCredentialsEnabled(user.id)) throw notActive();
        // An unknown user costs the same scrypt as a known one: the timing does not tell them apart.
        const verified = await verifyPassword(password, user?.passwordHash ?? UNUSABLE_HASH);
        if (!user || !verified) {
          throw unauthorized('Invalid username or password');
        }
        return reply.code(200).send(auth.tokenPair(user));
      },

      /** ThingsBoard's RefreshTokenProcessingFilter: a valid refresh token gets a new pair. */
      refreshToken(request, reply) {
        const { refreshToken } = request.body;
        const check = codec().verify(refreshToken);
        const user = check.ok && check.claims.scopes[0] === 'REFRESH_TOKEN' ? store.userById(check.claims.userId) : undefined;
        if (!user) {
          if (!check.ok && check.expired) throw new ApiError(401, 11, 'Token has expired');
          throw unauthorized('Invalid refresh token');
        }
        // RefreshTokenAuthenticationProvider: disabled credentials, then an outdated token.
        if (!store.userCredentialsEnabled(user.id)) throw notActive();
        if (check.ok && outdated(check.claims)) throw unauthorized('Token is outdated');
        return reply.code(200).send(auth.tokenPair(user));
      },

      getCurrentUser(request, reply) {
        return reply.code(200).send(userJson(request.user));
      },

      // ThingsBoard's UserSessionInvalidationEvent: the session's tokens (this pair) are outdated.
      async logout(request, reply) {
        const check = codec().verify(bearerOf(request) ?? '');
        if (check.ok && check.claims.sessionId) await outdate(check.claims.sessionId);
        return reply.code(200).send();
      },

      /**
       * AuthController.changePassword: the current password must match, the new one follow the
       * policy and differ; the user's earlier tokens are outdated and a new pair is the answer.
       */
      async changePassword(request, reply) {
        const { currentPassword, newPassword } = request.body;
        const user = request.user;
        if (!(await verifyPassword(currentPassword, user.passwordHash))) throw badRequest("Current password doesn't match!");
        const violation = policyViolation(newPassword);
        if (violation) throw badRequest(violation);
        if (await verifyPassword(newPassword, user.passwordHash)) throw badRequest('New password should be different from existing!');
        const passwordHash = await hashPassword(newPassword);
        await store.write(() => {
          store.updateUser({ ...user, passwordHash });
          store.outdateTokens(user.id, Date.now());
        });
        return reply.code(200).send(auth.tokenPair(user));
      },

      getUserPasswordPolicy(_request, reply) {
        return reply.code(200).send(PASSWORD_POLICY);
      },

      getUserToken(request, reply) {
        const { userId } = request.params;
        const user = store.userById(userId);
        if (!user) throw notFound(`User with id [${userId}] is not found`);
        return reply.code(200).send(auth.tokenPair(user));
      },
    },
  };
  return auth;
}

