// API keys (ThingsBoard 4.3+ ApiKeyController, ApiKeyAuthenticationProvider): a user's long-lived
// credential, sent as `ApiKey <value>` in X-Authorization or Authorization instead of a JWT. The value
// (64 random bytes, base64url, as ApiKeyServiceImpl generates it) is answered once, when the key is
// created; the store keeps only its SHA-256. A key may be disabled, and expires at expirationTime
// (0: never); the user behind it must have enabled credentials.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ApiError, badRequest, forbidden, unauthorized } from '../errors.js';
import { entityId, orNotFound, pageData, pageQuery, refId, TENANT } from './entities.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { ApiKeyRecord, Store, UserRecord } from '../store/types.js';
import type { Schema } from '../../spec/types.js';

export const API_KEY_PREFIX = 'ApiKey ';
/** ThingsBoard's security.api_key.value_bytes_size. */
const VALUE_BYTES = 64;
/** ApiKeyInfo's @Length default. */
const DESCRIPTION_MAX = 255;

const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');

/** ApiKeyAuthenticationProvider: the key's user, or the 401 ThingsBoard answers. */
export function apiKeyUser(store: Store, value: string): UserRecord | ApiError {
  const key = value ? store.apiKeyByHash(hashOf(value)) : undefined;
  // BadCredentialsException ("User not found for the provided API key"), as the error handler words it.
  if (!key) return unauthorized('Invalid username or password');
  if (!key.enabled) return unauthorized('User account is not active');
  if (key.expirationTime !== 0 && key.expirationTime < Date.now()) return unauthorized('API key is expired');
  const user = store.userById(key.userId);
  if (!user) return unauthorized('Invalid username or password');
  if (!store.userCredentialsEnabled(user.id)) return unauthorized('User account is not active');
  return user;
}

export const apiKeyInfoJson = (k: ApiKeyRecord): Schema<'ApiKeyInfo'> => ({
  id: entityId('API_KEY', k.id), createdTime: k.createdTime, tenantId: TENANT, userId: entityId('USER', k.userId),
  expirationTime: k.expirationTime, description: k.description, enabled: k.enabled,
  expired: k.expirationTime !== 0 && Date.now() > k.expirationTime,
});

/** checkUserId(WRITE): a tenant admin any user of the tenant, a customer user only itself. */
function ownedUser(store: Store, caller: UserRecord, userId: string): UserRecord {
  const user = orNotFound(store.userById(userId), 'User', userId);
  if (caller.authority === 'CUSTOMER_USER' && user.id !== caller.id) throw forbidden("You don't have permission to perform this operation!");
  return user;
}

/** ConstraintValidator on ApiKeyInfo: a description that is not blank, 255 characters at most. */
function checkDescription(description: string | null | undefined): string {
  if (!description?.trim()) throw badRequest('Validation error: description must not be blank');
  if (description.length > DESCRIPTION_MAX) throw badRequest(`Validation error: description length must be equal or less than ${DESCRIPTION_MAX}`);
  return description;
}

type SaveArg = { input: Schema<'ApiKeyInput'>; caller: UserRecord };

/** ApiKeyServiceImpl.saveApiKey with ApiKeyDataValidator's checks; a new key gets its value. */
function save(store: Store, { input, caller }: SaveArg): { key: ApiKeyRecord; value: string | null } {
  const userId = refId(input.userId);
  if (!userId) throw badRequest('API key should be assigned to user!');
  if (!store.userById(userId)) throw badRequest('API key reference a non-existent user!');
  ownedUser(store, caller, userId);
  const description = checkDescription(input.description);
  const expirationTime = input.expirationTime ?? 0;
  const id = refId(input.id);
  if (id) {
    const old = store.apiKeyById(id);
    if (!old) throw badRequest('Cannot update non-existent API key!');
    if (old.userId !== userId) throw badRequest('Cannot update API key user id!');
    if (old.expirationTime !== expirationTime) throw badRequest('Cannot update API key expiration time!');
    const key = { ...old, description, enabled: input.enabled ?? false };
    store.updateApiKey(key);
    return { key, value: null };
  }
  const value = randomBytes(VALUE_BYTES).toString('base64url');
  const key = { id: randomUUID(), userId, valueHash: hashOf(value), description, enabled: input.enabled ?? false, expirationTime, createdTime: Date.now() };
  store.insertApiKey(key);
  return { key, value };
}

export function apiKeyHandlers({ store }: ServerContext): Handlers {
  const runSave = (arg: SaveArg) => save(store, arg);
  /** checkApiKeyId and then checkUserId of its user. */
  const ownedKey = (caller: UserRecord, id: string): ApiKeyRecord => {
    const key = orNotFound(store.apiKeyById(id), 'Api key', id);
    ownedUser(store, caller, key.userId);
    return key;
  };
  const runUpdate = ({ caller, id, patch }: { caller: UserRecord; id: string; patch: Partial<ApiKeyRecord> }) => {
    const key = { ...ownedKey(caller, id), ...patch };
    store.updateApiKey(key);
    return key;
  };

  return {
    async saveApiKey(request, reply) {
      const { key, value } = await store.write(runSave, { input: request.body, caller: request.user });
      return reply.code(200).send({ ...apiKeyInfoJson(key), value });
    },

    getUserApiKeys(request, reply) {
      const user = ownedUser(store, request.user, request.params.userId);
      const page = pageQuery(request.query, 'apiKeys');
      return reply.code(200).send(pageData(store.listApiKeys(user.id, page), page, apiKeyInfoJson));
    },

    /** The body is the description as text (Spring binds it as an Optional<String>); none clears it. */
    async updateApiKeyDescription(request, reply) {
      const description = checkDescription(typeof request.body === 'string' && request.body !== '' ? request.body : null);
      const key = await store.write(runUpdate, { caller: request.user, id: request.params.id, patch: { description } });
      return reply.code(200).send(apiKeyInfoJson(key));
    },

    async enableApiKey(request, reply) {
      const { id, enabledValue } = request.params;
      const key = await store.write(runUpdate, { caller: request.user, id, patch: { enabled: enabledValue } });
      return reply.code(200).send(apiKeyInfoJson(key));
    },

    async deleteApiKey(request, reply) {
      await store.write(({ caller, id }) => store.deleteApiKey(ownedKey(caller, id).id), { caller: request.user, id: request.params.id });
      return reply.code(200).send();
    },
  };
}
