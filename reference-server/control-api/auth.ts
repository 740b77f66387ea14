// Users and their JWTs: the default tenant admin, login, the bearer-token hook, user tokens, and
// the permission guard (tenant admins may do everything but claim; customer users only claim).
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { ApiError, ErrorCode, errorBody, forbidden, notFound, unauthorized } from '../errors.js';
import { userJson } from './customers.js';
import { signJwt, verifyJwt } from './jwt.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { ServerContext } from '../context.js';
import type { Handlers, RouteHandler } from '../handler.js';
import type { Authority, UserRecord } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user authenticated by the bearer JWT (control API routes only). */
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
  let secret = config.jwtSecret ? Buffer.from(config.jwtSecret) : Buffer.alloc(0);

  const bearerOf = (request: FastifyRequest): string | undefined => {
    const header = request.headers['x-authorization'] ?? request.headers.authorization;
    return typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
  };

  const sign = (user: UserRecord, scopes: string[], ttlSeconds: number) => {
    const iat = Math.floor(Date.now() / 1000);
    return signJwt(secret, {
      sub: user.email, scopes, userId: user.id, ...(user.customerId && { customerId: user.customerId }),
      iss: ISSUER, iat, exp: iat + ttlSeconds,
    });
  };

  const auth: Auth = {
    async init() {
      if (secret.length === 0) {
        const stored = store.setting(JWT_SECRET_SETTING);
        const value = stored ?? randomBytes(32).toString('base64url');
        if (!stored) await store.write(() => store.setSetting(JWT_SECRET_SETTING, value));
        secret = Buffer.from(value);
      }
      const admin = store.userByEmail(DEFAULT_ADMIN);
      if (admin && (await verifyPassword(config.adminPassword, admin.passwordHash))) return;
      const passwordHash = await hashPassword(config.adminPassword);
      await store.write(() => {
        if (admin) store.updateUser({ ...admin, passwordHash });
        else store.insertUser({
          id: randomUUID(), email: DEFAULT_ADMIN, authority: 'TENANT_ADMIN', customerId: null, firstName: null,
          lastName: null, passwordHash, createdTime: Date.now(),
        });
      });
    },

    authenticate(request, reply, done) {
      const token = bearerOf(request);
      const check = token ? verifyJwt(secret, token) : undefined;
      const user = check?.ok && check.claims.scopes.length === 1 && check.claims.scopes[0] !== 'REFRESH_TOKEN'
        ? store.userById(check.claims.userId)
        : undefined;
      if (!user) {
        // ThingsBoard: JWT_TOKEN_EXPIRED (11) for an expired token, AUTHENTICATION (10) otherwise.
        const expired = check && !check.ok && check.expired;
        reply.code(401).send(expired
          ? errorBody(401, 11, 'Token has expired')
          : errorBody(401, ErrorCode.AUTHENTICATION, 'Authentication failed'));
        return;
      }
      request.user = user;
      done();
    },

    tokenPair: (user) => ({
      token: sign(user, [user.authority], config.jwtTtlSeconds),
      refreshToken: sign(user, ['REFRESH_TOKEN'], REFRESH_TTL_SECONDS),
    }),

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
        const check = verifyJwt(secret, refreshToken);
        const user = check.ok && check.claims.scopes[0] === 'REFRESH_TOKEN' ? store.userById(check.claims.userId) : undefined;
        if (!user) {
          if (!check.ok && check.expired) throw new ApiError(401, 11, 'Token has expired');
          throw unauthorized('Invalid refresh token');
        }
        return reply.code(200).send(auth.tokenPair(user));
      },

      getCurrentUser(request, reply) {
        return reply.code(200).send(userJson(request.user));
      },

      // JWTs are not stored: ThingsBoard's logout only records the event.
      logout(_request, reply) {
        return reply.code(200).send();
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

