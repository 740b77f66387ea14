// Loads THE contract once: parse, validate, dereference, and expose typed operations.
// Nothing else in dhi reads the YAML file.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { createAjv, type JsonSchema } from './schema-validator.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

export interface ResponseSpec {
  description: string;
  /** Media type of the body; undefined when the response has no body. */
  contentType?: string;
  schema?: JsonSchema;
  headers: string[];
}

export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. /api/v1/{accessToken}/telemetry */
  path: string;
  /** The endpoint number in the specification's table (x-dhi-op), device operations only. */
  op?: number;
  tags: string[];
  /** True when the operation requires a bearer token (the control API), from `security`. */
  secured: boolean;
  summary: string;
  description: string;
  pathParams: OpenAPIV3_1.ParameterObject[];
  queryParams: OpenAPIV3_1.ParameterObject[];
  requestBody?: { required: boolean; contentType: string; schema: JsonSchema };
  responses: Record<string, ResponseSpec>;
}

export interface Contract {
  document: OpenAPIV3_1.Document;
  /** The document as written ($refs kept), for the TypeScript types (generate-types.ts). */
  raw: OpenAPIV3_1.Document;
  operations: Operation[];
  byId: Map<string, Operation>;
}

export class ContractError extends Error {
  constructor(readonly problems: string[]) {
    super(`the OpenAPI document has ${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
    this.name = 'ContractError';
  }
}

const METHODS: HttpMethod[] = ['get', 'post', 'put', 'delete', 'patch'];
const DOCUMENT_NAME = 'device-http-interface.openapi.yaml';

/** The YAML sits in <package>/spec; this module runs from spec/ (sources) or dist/spec/ (built). */
function findDocument(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'spec', DOCUMENT_NAME);
    if (existsSync(candidate)) return candidate;
    const here = join(dir, DOCUMENT_NAME);
    if (existsSync(here)) return here;
    dir = dirname(dir);
  }
  throw new ContractError([`${DOCUMENT_NAME} not found above ${fileURLToPath(import.meta.url)}`]);
}

export const contractPath = findDocument();

function collectOperations(doc: OpenAPIV3_1.Document, problems: string[]): Operation[] {
  const operations: Operation[] = [];
  const seenIds = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!item) continue;
    for (const method of METHODS) {
      const raw = item[method] as (OpenAPIV3_1.OperationObject & { 'x-dhi-op'?: number }) | undefined;
      if (!raw) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const operationId = raw.operationId ?? '';
      if (!operationId) problems.push(`${where}: no operationId`);
      else if (seenIds.has(operationId)) problems.push(`${where}: duplicate operationId ${operationId}`);
      seenIds.add(operationId);
      const params = [...(item.parameters ?? []), ...(raw.parameters ?? [])] as OpenAPIV3_1.ParameterObject[];
      const tags = raw.tags ?? [];
      if (tags.includes('device') && typeof raw['x-dhi-op'] !== 'number') problems.push(`${where}: device operation without x-dhi-op`);
      operations.push({
        operationId,
        method,
        path,
        op: raw['x-dhi-op'],
        tags,
        secured: (raw.security ?? doc.security ?? []).length > 0,
        summary: raw.summary ?? '',
        description: raw.description ?? '',
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        requestBody: requestBodyOf(raw.requestBody as OpenAPIV3_1.RequestBodyObject | undefined),
        responses: responsesOf(raw.responses ?? {}),
      });
    }
  }
  return operations;
}

function requestBodyOf(body: OpenAPIV3_1.RequestBodyObject | undefined): Operation['requestBody'] {
  if (!body) return undefined;
  const [contentType, media] = Object.entries(body.content ?? {})[0] ?? [];
  if (!contentType) return undefined;
  return { required: body.required ?? false, contentType, schema: (media?.schema ?? {}) as JsonSchema };
}

function responsesOf(responses: OpenAPIV3_1.ResponsesObject): Record<string, ResponseSpec> {
  const out: Record<string, ResponseSpec> = {};
  for (const [status, value] of Object.entries(responses)) {
    const response = value as OpenAPIV3_1.ResponseObject;
    const [contentType, media] = Object.entries(response.content ?? {})[0] ?? [];
    out[status] = {
      description: response.description,
      contentType,
      schema: contentType ? ((media?.schema ?? {}) as JsonSchema) : undefined,
      headers: Object.keys(response.headers ?? {}),
    };
  }
  return out;
}

/** Parse, validate and dereference the document; every problem is listed in one ContractError. */
export async function loadContractFrom(file: string): Promise<Contract> {
  const problems: string[] = [];
  let document: OpenAPIV3_1.Document | undefined;
  try {
    document = (await SwaggerParser.validate(file)) as OpenAPIV3_1.Document;
  } catch (error) {
    problems.push(...problemsOf(error));
    // Keep going on the unvalidated document, so that the dhi checks below report too.
    document = (await SwaggerParser.dereference(file).catch(() => undefined)) as OpenAPIV3_1.Document | undefined;
  }
  if (!document) throw new ContractError(problems);
  const operations = collectOperations(document, problems);
  const raw = (await SwaggerParser.parse(file)) as OpenAPIV3_1.Document;
  problems.push(...schemaProblems(raw));
  if (problems.length) throw new ContractError(problems);
  return { document, raw, operations, byId: new Map(operations.map((o) => [o.operationId, o])) };
}

function problemsOf(error: unknown): string[] {
  const details = (error as { details?: { message: string; instancePath?: string }[] }).details;
  return details?.length
    ? details.map((d) => `${d.instancePath ?? ''} ${d.message}`.trim())
    : [(error as Error).message];
}

/**
 * The OpenAPI 3.1 schema does not look inside Schema Objects: check each against the JSON Schema
 * 2020-12 meta-schema. Walks the document before dereferencing, so a $ref is just a string here.
 */
function schemaProblems(raw: OpenAPIV3_1.Document): string[] {
  const ajv = createAjv();
  const problems: string[] = [];
  const check = (schema: unknown, where: string) => {
    if (typeof schema !== 'object' || schema === null) return; // the OpenAPI schema reports it
    if (ajv.validateSchema(schema as object)) return;
    for (const e of ajv.errors ?? []) problems.push(`${where}${e.instancePath} ${e.message ?? 'is invalid'}`);
  };
  for (const [name, schema] of Object.entries(raw.components?.schemas ?? {})) check(schema, `#/components/schemas/${name}`);
  const visit = (node: unknown, where: string): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, child] of Object.entries(node)) {
      const at = `${where}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (key === 'schema') check(child, at);
      else visit(child, at);
    }
  };
  visit(raw.paths, '#/paths');
  visit(raw.components?.parameters, '#/components/parameters');
  visit(raw.components?.responses, '#/components/responses');
  visit(raw.components?.requestBodies, '#/components/requestBodies');
  visit(raw.components?.headers, '#/components/headers');
  return problems;
}

let cached: Promise<Contract> | undefined;

/** The contract of this package, loaded once per process. */
export function loadContract(): Promise<Contract> {
  cached ??= loadContractFrom(contractPath);
  return cached;
}

/** Device operations (tag `device`), in the specification's order. */
export function deviceOperations(contract: Contract): Operation[] {
  return contract.operations.filter((o) => o.tags.includes('device')).sort((a, b) => (a.op ?? 0) - (b.op ?? 0));
}
