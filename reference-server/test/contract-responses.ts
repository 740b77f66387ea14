// Every response the server tests receive is checked against the OpenAPI document: the status is
// documented for the operation, the content type is the declared one (none for an empty body),
// and a JSON body matches the schema. A response outside the document fails the test.
import { expect } from 'vitest';
import { loadContract, type Operation } from '../../spec/load.js';
import { literalsFirst, pathRegex } from '../../spec/path-template.js';
import { isPersistentOneWayAnswer } from '../../spec/persistent-rpc.js';
import { compile, describeErrors, type Validator } from '../../spec/schema-validator.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent (a package's bytes), and as UTF-8 text. */
  bytes: Buffer;
  text: string;
  json: () => unknown;
}

interface Documented {
  op: Operation;
  re: RegExp;
  validators: Map<string, Validator | undefined>;
}

const isBytes = (schema: unknown) => (schema as { format?: string } | undefined)?.format === 'binary';

const documented: Documented[] = (await loadContract()).operations.map((op) => ({
  op,
  re: pathRegex(op.path),
  validators: new Map(Object.entries(op.responses).map(([status, r]) => [
    status, r.contentType === 'application/json' && r.schema ? compile(r.schema) : undefined,
  ])),
}))
  // A literal segment wins over a parameter, as in the router: /deviceProfile/names before /deviceProfile/{id}.
  .sort((a, b) => literalsFirst(a.op.path, b.op.path));

const entryOf = (method: Method, path: string): Documented | undefined => {
  const url = path.split('?')[0];
  return documented.find((d) => d.op.method === method.toLowerCase() && d.re.test(url));
};

/** The operation a request reaches, or undefined for a method or path the document does not have. */
export const operationOf = (method: Method, path: string): Operation | undefined => entryOf(method, path)?.op;

/**
 * Checks a response of a documented operation. A request the document does not have (an unknown
 * path, another method: 404 and 405 by design) has no operation to check against and passes.
 */
export function checkAgainstContract(method: Method, path: string, res: Response): void {
  const entry = entryOf(method, path);
  if (!entry) return;
  const status = String(res.status);
  const problems: string[] = [];
  if (!entry.validators.has(status)) problems.push(`${status} is not documented`);
  // The content type: the declared one for a body, none declared for an empty one.
  // A package's bytes go out with the package's own media type, and may be none (a chunk past the end).
  const { contentType: declared, schema } = entry.op.responses[status] ?? {};
  const sent = String(res.headers['content-type'] ?? '').split(';')[0];
  if (declared && !isBytes(schema)) {
    if (res.bytes.length === 0) problems.push(`empty body where the document declares ${declared}`);
    else if (sent !== declared) problems.push(`content type ${sent || '(none)'} where the document declares ${declared}`);
  } else if (!declared && res.bytes.length > 0 && !isPersistentOneWayAnswer(entry.op.operationId, res.text)) {
    problems.push(`a body (${res.text.slice(0, 80)}) where the document declares none`);
  }
  const validate = entry.validators.get(status);
  if (validate && res.text !== '') {
    const body = parsed(res.text);
    if (body === NOT_JSON) problems.push(`a body that is not JSON: ${res.text.slice(0, 80)}`);
    else if (!validate(body)) problems.push(...describeErrors(validate.errors));
  }
  // A plain expect: it works in hooks too (expect.soft does not), and fails the test at once.
  expect(problems, `${method} ${path} (${entry.op.operationId} ${status}) against the contract: ${problems.join('; ')}`).toEqual([]);
}

const NOT_JSON = Symbol('not JSON');
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
