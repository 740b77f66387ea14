// Friendly names for the generated contract types (contract-types.ts): request and response types
// come from the document, never hand-copied. Each alias is never when the operation has no such part.
import type { components, operations } from './contract-types.js';

export type OperationId = keyof operations;

/** A schema of components/schemas by name: `Schema<'Device'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The operation's JSON request body. */
export type Body<Id extends OperationId> = JsonOf<NonNullable<operations[Id]['requestBody']>>;

/** The operation's query parameters (optional ones optional). */
export type Query<Id extends OperationId> = NonNullable<operations[Id]['parameters']['query']>;

/** The operation's path parameters. */
export type PathParams<Id extends OperationId> = NonNullable<operations[Id]['parameters']['path']>;

/** The operation's 200 JSON response body. */
export type Ok<Id extends OperationId> = operations[Id]['responses'] extends { 200: infer R } ? JsonOf<R> : never;

// [T] so that a missing part (never) stays never instead of matching every shape.
type JsonOf<T> = [T] extends [never] ? never : T extends { content: { 'application/json': infer J } } ? J : never;
