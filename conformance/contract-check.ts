// Every response is validated against the OpenAPI document: the status is documented for the
// operation, a JSON body has the documented media type and matches the schema. Compiled once.
import type { Contract } from '../spec/load.js';
import { isPersistentOneWayAnswer } from '../spec/persistent-rpc.js';
import { compile, describeErrors, type Validator } from '../spec/schema-validator.js';
import type { Failure, Severity } from './verdict.js';
import type { Reply } from './client.js';

export interface ContractChecker {
  /** Failures of one response against its operation; `severity` is the case-level weight. */
  check(operationId: string, reply: Reply, severity: Severity): Failure[];
}

interface Documented {
  contentType?: string;
  validate?: Validator;
}

export function createContractChecker(contract: Contract): ContractChecker {
  const responses = new Map<string, Map<string, Documented>>();
  // Dereferenced shared responses are the same object: compile each schema once.
  const compiled = new Map<object, Validator>();
  const validatorOf = (schema: object): Validator => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = compile(schema as Record<string, unknown>)));
    return validate;
  };
  for (const op of contract.operations) {
    const byStatus = new Map<string, Documented>();
    for (const [status, spec] of Object.entries(op.responses)) {
      const binary = spec.schema?.format === 'binary';
      byStatus.set(status, { contentType: spec.contentType, validate: spec.schema && !binary ? validatorOf(spec.schema) : undefined });
    }
    responses.set(op.operationId, byStatus);
  }

  function check(operationId: string, reply: Reply, severity: Severity): Failure[] {
    const byStatus = responses.get(operationId);
    if (!byStatus) throw new Error(`conformance: no operation ${operationId} in the contract`);
    const documented = byStatus.get(String(reply.status)) ?? byStatus.get(`${String(reply.status)[0]}XX`) ?? byStatus.get('default');
    const where = `${operationId} ${reply.status}`;
    if (!documented) {
      return [{ check: 'statusDocumented', expected: [...byStatus.keys()], actual: reply.status, message: `${operationId} does not document ${reply.status}`, severity }];
    }
    if (!documented.contentType) {
      if (reply.bytes.length === 0 || reply.status >= 300 || isPersistentOneWayAnswer(operationId, reply.text)) return [];
      return [{ check: 'bodyIsEmpty', expected: '(no body)', actual: reply.text.slice(0, 200), message: `${where}: the document gives no body (ThingsBoard: empty)`, severity: weaker(severity) }];
    }
    if (!documented.validate) return []; // bytes: the media type is the package's own
    if (reply.bytes.length === 0) {
      // ThingsBoard sends 401 (and firmware 400/404) with an empty body: a difference, not a break.
      if (reply.status >= 400) {
        return [{ check: 'bodyMatchesSchema', expected: 'the JSON error body', actual: '(empty body)', message: `${where}: empty body where the document gives {status, message, errorCode, timestamp} (ThingsBoard sends this error with an empty body; a SHOULD-level difference)`, severity: weaker(severity) }];
      }
      return [{ check: 'bodyMatchesSchema', expected: `a ${documented.contentType} body`, actual: '(empty body)', message: where, severity }];
    }
    // The specification does not show error bodies: their shape is ThingsBoard's (a SHOULD).
    const bodySeverity = reply.status >= 400 ? weaker(severity) : severity;
    const failures: Failure[] = [];
    if (reply.mediaType !== documented.contentType) {
      failures.push({ check: 'mediaTypeIs', expected: documented.contentType, actual: reply.headers['content-type'] ?? '(none)', message: `${where}: answered with another content type`, severity: bodySeverity });
    }
    if (documented.contentType === 'text/plain') {
      // A bare text (ThingsBoard's "Device was deleted!"): the schema describes the text itself.
      if (!documented.validate(reply.text as unknown)) failures.push({ check: 'bodyMatchesSchema', expected: `the ${where} schema`, actual: reply.text.slice(0, 200), message: where, severity: bodySeverity });
      return failures;
    }
    if (reply.json === undefined) {
      failures.push({ check: 'bodyIsJson', expected: 'a JSON document', actual: `${reply.jsonError}: ${reply.text.slice(0, 120)}`, message: where, severity: bodySeverity });
      return failures;
    }
    if (!documented.validate(reply.json)) {
      failures.push({ check: 'bodyMatchesSchema', expected: `the ${where} schema`, actual: describeErrors(documented.validate.errors), message: where, severity: bodySeverity });
    }
    return failures;
  }

  return { check };
}

function weaker(severity: Severity): Severity {
  return severity === 'MUST' ? 'SHOULD' : severity;
}
