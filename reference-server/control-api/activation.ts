// User activation by link (ThingsBoard's UserServiceImpl, DefaultUserService, AuthController): a user
// created through the API has its credentials disabled and an activation token (30 random bytes,
// base64url, 24 h); the link `<base url>/api/noauth/activate?activateToken=<token>` is the way to
// activate it (no mail is sent), and `POST /api/noauth/activate` sets its first password, enables
// it and logs it in.
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import { orNotFound } from './entities.js';
import { hashPassword, policyViolation } from './passwords.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { Activation, Store, UserRecord } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

/** UserServiceImpl.DEFAULT_TOKEN_LENGTH (bytes) and the default userActivationTokenTtl. */
const TOKEN_BYTES = 30;
const TOKEN_TTL_MS = 24 * 3_600_000;
/** UserServiceImpl.checkUserActivationToken: a link with less left than this gets a new token. */
const RENEW_BELOW_MS = 15 * 60_000;

/** generateUserActivationToken. */
export const newActivation = (now = Date.now()): Activation =>
  ({ token: randomBytes(TOKEN_BYTES).toString('base64url'), expiresAt: now + TOKEN_TTL_MS });

/** SystemSecurityService.getBaseUrl from the request: its scheme and Host. */
const baseUrlOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** DefaultUserService.getActivationLink: the link and the ms it has left; renewed near its end. */
function activationLink(store: Store, userId: string): Activation {
  const current = store.userCredentialsEnabled(userId) ? undefined : store.activation(userId);
  if (!current) throw badRequest('User is already activated!');
  if (current.expiresAt - Date.now() >= RENEW_BELOW_MS) return current;
  const renewed = newActivation();
  store.setActivation(userId, renewed);
  return renewed;
}

/** UserServiceImpl.activateUserCredentials: the user of a token that is still valid. */
function activate(store: Store, { token, passwordHash }: { token: string; passwordHash: string }): string {
  const userId = store.userIdByActivateToken(token);
  if (!userId) throw badRequest(`Unable to find user credentials by activateToken [${token}]`);
  if (store.userCredentialsEnabled(userId)) throw badRequest('User credentials already activated');
  if (store.activation(userId)!.expiresAt < Date.now()) throw badRequest('Activation token expired');
  store.updateUser({ ...store.userById(userId)!, passwordHash });
  store.setActivation(userId, undefined);
  store.setUserCredentialsEnabled(userId, true);
  return userId;
}

/** `tokenPair`: the JWT pair an activated user gets (auth.ts). */
export function activationHandlers({ store }: ServerContext, tokenPair: (user: UserRecord) => Schema<'JwtPair'>): Handlers {
  const linkOf = async (request: FastifyRequest, userId: string) => {
    orNotFound(store.userById(userId), 'User', userId);
    const activation = await store.write(() => activationLink(store, userId));
    return { value: `${baseUrlOf(request)}/api/noauth/activate?activateToken=${activation.token}`, ttlMs: activation.expiresAt - Date.now() };
  };
  const runActivate = (arg: { token: string; passwordHash: string }) => activate(store, arg);

  return {
    async getActivationLink(request, reply) {
      return reply.code(200).type('text/plain; charset=utf-8').send((await linkOf(request, request.params.userId)).value);
    },

    async getActivationLinkInfo(request, reply) {
      return reply.code(200).send(await linkOf(request, request.params.userId));
    },

    /** ThingsBoard redirects to its web UI's pages for the token. */
    checkActivateToken(request, reply) {
      const token = request.query.activateToken;
      const userId = store.userIdByActivateToken(token);
      if (!userId) return reply.code(409).send();
      const expired = store.activation(userId)!.expiresAt < Date.now();
      const location = expired ? '/activationLinkExpired' : `/login/createPassword?activateToken=${encodeURIComponent(token)}`;
      return reply.code(303).header('location', location).send();
    },

    async activateUser(request, reply) {
      const { activateToken, password } = request.body;
      if (!activateToken) throw badRequest(`Incorrect activateToken ${activateToken}`);
      const violation = policyViolation(password);
      if (violation) throw badRequest(violation);
      const userId = await store.write(runActivate, { token: activateToken, passwordHash: await hashPassword(password) });
      return reply.code(200).send(tokenPair(store.userById(userId)!));
    },
  };
}
