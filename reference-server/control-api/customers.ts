// Customers and their users (ThingsBoard CustomerController, and UserController's calls for customer
// users). Users created here have no password; a tenant admin obtains their JWT
// (GET /api/user/{id}/token).
import { randomUUID } from 'node:crypto';
import { badRequest, forbidden, notFound } from '../errors.js';
import { newActivation } from './activation.js';
import { entityId, kept, nextVersion, optionalEntityId, orNotFound, NULL_UUID, pageData, pageQuery, refId, TENANT, uuidList } from './entities.js';
import type { ServerContext } from '../context.js';
import type { Handlers } from '../handler.js';
import type { Contact, CustomerRecord, JsonValue, Store, UserRecord } from '../store/types.js';
import type { Query, Schema } from '../../spec/types.js';

type CustomerInput = Schema<'CustomerInput'>;
type UserInput = Schema<'UserInput'>;

/** ThingsBoard's ContactBased fields, each from `get`. */
const contactOf = (get: (field: keyof Contact) => string | null): Contact => ({
  country: get('country'), state: get('state'), city: get('city'), address: get('address'),
  address2: get('address2'), zip: get('zip'), phone: get('phone'), email: get('email'),
});

const customerJson = (c: CustomerRecord): Schema<'Customer'> => ({
  id: entityId('CUSTOMER', c.id), createdTime: c.createdTime, tenantId: TENANT, title: c.title, name: c.title,
  ...contactOf((field) => c[field]),
  additionalInfo: c.additionalInfo, externalId: optionalEntityId('CUSTOMER', c.externalId), version: c.version,
});

export const userJson = (u: UserRecord): Schema<'User'> => ({
  id: entityId('USER', u.id), createdTime: u.createdTime, tenantId: TENANT, email: u.email, name: u.email,
  authority: u.authority, customerId: entityId('CUSTOMER', u.customerId ?? NULL_UUID), firstName: u.firstName,
  lastName: u.lastName, phone: u.phone, additionalInfo: u.additionalInfo, version: u.version,
});

const foundCustomer = (store: Store, id: string): CustomerRecord => orNotFound(store.customerById(id), 'Customer', id);
const foundUser = (store: Store, id: string): UserRecord => orNotFound(store.userById(id), 'User', id);

/** The users among the ids that exist (ThingsBoard skips the others). */
const usersByIds = (store: Store, ids: string) =>
  uuidList(ids).flatMap((id) => {
    const user = store.userById(id);
    return user ? [userJson(user)] : [];
  });

/** The customers among the ids that exist (ThingsBoard skips the others). */
const customersByIds = (store: Store, ids: string) =>
  uuidList(ids).flatMap((id) => {
    const customer = store.customerById(id);
    return customer ? [customerJson(customer)] : [];
  });

function saveCustomer(store: Store, input: CustomerInput): CustomerRecord {
  const id = refId(input.id);
  const before = id ? foundCustomer(store, id) : undefined;
  const titled = store.customerByTitle(input.title);
  if (titled && titled.id !== id) throw badRequest('Customer with such title already exists!');
  const customer: CustomerRecord = {
    id: before?.id ?? randomUUID(), title: input.title,
    ...contactOf((field) => kept(input[field], before?.[field])),
    // A parsed body: its objects hold JSON values (the contract types them loosely).
    additionalInfo: kept(input.additionalInfo as JsonValue | undefined, before?.additionalInfo),
    externalId: input.externalId === undefined ? (before?.externalId ?? null) : refId(input.externalId),
    version: nextVersion('Customer', before, input.version), createdTime: before?.createdTime ?? Date.now(),
  };
  if (before) store.updateCustomer(customer);
  else store.insertCustomer(customer);
  return customer;
}

function saveUser(store: Store, input: UserInput): UserRecord {
  const id = refId(input.id);
  const before = id ? store.userById(id) : undefined;
  if (id && !before) throw notFound(`User with id [${id}] is not found`);
  const customerId = refId(input.customerId);
  if (input.authority === 'CUSTOMER_USER') {
    if (!customerId) throw badRequest('Customer user should be assigned to customer!');
    if (!store.customerById(customerId)) throw badRequest('User is referencing to non-existent customer!');
  } else if (customerId) {
    throw badRequest('Tenant administrator should not be assigned to customer!');
  }
  const emailed = store.userByEmail(input.email);
  if (emailed && emailed.id !== id) throw badRequest(`User with email '${input.email}' already present in database!`);
  const user: UserRecord = {
    id: before?.id ?? randomUUID(), email: input.email, authority: input.authority, customerId,
    firstName: kept(input.firstName, before?.firstName), lastName: kept(input.lastName, before?.lastName),
    phone: kept(input.phone, before?.phone),
    additionalInfo: kept(input.additionalInfo as JsonValue | undefined, before?.additionalInfo),
    version: nextVersion('User', before, input.version),
    passwordHash: before?.passwordHash ?? null, createdTime: before?.createdTime ?? Date.now(),
  };
  if (before) store.updateUser(user);
  else {
    // As UserServiceImpl: a new user is not active until it follows its activation link (activation.ts).
    store.insertUser(user);
    store.setUserCredentialsEnabled(user.id, false);
    store.setActivation(user.id, newActivation());
  }
  return user;
}

export function customerHandlers({ store }: ServerContext): Handlers {
  const idOf = ({ customerId }: { customerId: string }) => customerId;
  const runSaveCustomer = (input: CustomerInput) => saveCustomer(store, input);
  const runSaveUser = (input: UserInput) => saveUser(store, input);

  return {
    async saveCustomer(request, reply) {
      return reply.code(200).send(customerJson(await store.write(runSaveCustomer, request.body)));
    },

    getCustomer(request, reply) {
      return reply.code(200).send(customerJson(foundCustomer(store, idOf(request.params))));
    },

    async deleteCustomer(request, reply) {
      const id = idOf(request.params);
      // Its users go with it; its devices become unassigned (foreign keys).
      await store.write(() => {
        foundCustomer(store, id);
        store.deleteCustomer(id);
      });
      return reply.code(200).send();
    },

    getCustomers(request, reply) {
      const { query } = request;
      // ThingsBoard maps the same path with `customerIds` to a plain list of those customers.
      if (query.customerIds !== undefined) return reply.code(200).send(customersByIds(store, query.customerIds));
      const page = pageQuery(query, 'customers');
      return reply.code(200).send(pageData(store.listCustomers(page), page, customerJson));
    },

    getCustomersByIds(request, reply) {
      return reply.code(200).send(customersByIds(store, request.query.customerIds));
    },

    getTenantCustomer(request, reply) {
      const { customerTitle } = request.query;
      const customer = store.customerByTitle(customerTitle);
      if (!customer) throw notFound(`Customer with title [${customerTitle}] is not found`);
      return reply.code(200).send(customerJson(customer));
    },

    getShortCustomerInfo(request, reply) {
      const customer = foundCustomer(store, idOf(request.params));
      return reply.code(200).send({ title: customer.title, isPublic: false });
    },

    getCustomerTitle(request, reply) {
      return reply.code(200).type('application/text').send(foundCustomer(store, idOf(request.params)).title);
    },

    async saveUser(request, reply) {
      return reply.code(200).send(userJson(await store.write(runSaveUser, request.body)));
    },

    getUser(request, reply) {
      return reply.code(200).send(userJson(foundUser(store, request.params.userId)));
    },

    async deleteUser(request, reply) {
      const { userId } = request.params;
      await store.write(() => {
        foundUser(store, userId);
        if (userId === request.user.id) throw badRequest("It's not allowed to delete own user!");
        store.deleteUser(userId);
      });
      return reply.code(200).send();
    },

    getCustomerUsers(request, reply) {
      const customerId = foundCustomer(store, idOf(request.params)).id;
      const page = pageQuery(request.query, 'users');
      return reply.code(200).send(pageData(store.listUsers(page, { customerId, authority: 'CUSTOMER_USER' }), page, userJson));
    },

    getUsers(request, reply) {
      const { query } = request;
      // ThingsBoard maps the same path with `userIds` to a plain list of those users.
      if (query.userIds !== undefined) return reply.code(200).send(usersByIds(store, query.userIds));
      // ThingsBoard findUsersByTenantId: every user of the tenant, its customers' users included.
      const page = pageQuery(query, 'users');
      return reply.code(200).send(pageData(store.listUsers(page), page, userJson));
    },

    getUsersByIds(request, reply) {
      return reply.code(200).send(usersByIds(store, request.query.userIds));
    },

    findUsersByQuery(request, reply) {
      const page = pageQuery(request.query, 'users');
      return reply.code(200).send(pageData(store.listUsers(page), page, (u) => ({
        id: entityId('USER', u.id), email: u.email, firstName: u.firstName, lastName: u.lastName,
      })));
    },

    // SYS_ADMIN only in ThingsBoard: the permission guard refuses every dhi user (index.ts).
    getTenantAdmins() {
      throw forbidden("You don't have permission to perform this operation!");
    },

    /** Disabling outdates the user's tokens (ThingsBoard's UserCredentialsInvalidationEvent). */
    async setUserCredentialsEnabled(request, reply) {
      const { userId } = request.params;
      // The validator fills in the default (true), as Spring does.
      const { userCredentialsEnabled } = request.query as Required<Query<'setUserCredentialsEnabled'>>;
      foundUser(store, userId);
      await store.write(() => {
        store.setUserCredentialsEnabled(userId, userCredentialsEnabled);
        if (!userCredentialsEnabled) store.outdateTokens(userId, Date.now());
      });
      return reply.code(200).send();
    },

    getUserTokenAccessEnabled(_request, reply) {
      return reply.code(200).send(true);
    },
  };
}
