// Unknown resources (group 4): unknown paths are 404, known paths with the wrong method 405.
import type { Case } from '../case.js';
import { checkAll, isErrorBody, should, statusIs } from '../checks.js';
import { randomToken } from '../../spec/access-token.js';
import { op } from './kit.js';
import { wrongMethod } from './patterns.js';

/** `orUnauthorized`: a 401 refuses too (a target whose REST API asks for a token before it routes). */
function notFound(id: string, title: string, path: (token: string) => string, requirement: string, orUnauthorized = false): Case {
  return {
    id,
    title,
    requirement,
    severity: 'MUST',
    async run(t) {
      const reply = await t.device({ method: 'POST', path: path(randomToken()), json: { a: 1 } });
      const status = orUnauthorized && reply.status === 401 ? 401 : 404;
      t.expect(...checkAll(reply, statusIs(status), should(isErrorBody(status))));
    },
  };
}

export const errorCases: Case[] = [
  notFound('1.4.1', 'an unknown path below the token is 404', (k) => op.path(k, 'telemetryx'), 'A resource that does not exist is 404 Not Found (specification, Errors).'),
  notFound('1.4.2', 'a version other than v1 is 404, or 401 before routing', (k) => `/api/v2/${k}/telemetry`,
    'Every device path starts with /api/v1/; no other version is described (specification, Versioning), so it is 404 (Errors). ThingsBoard answers 401: its security filter asks a JWT of every /api path outside /api/v1 (its REST API has /api/v2 paths) before any route is chosen.', true),
  notFound('1.4.3', 'a path below an operation is 404', (k) => op.path(k, 'telemetry/extra'), 'A resource that does not exist is 404 Not Found (specification, Errors).'),
  wrongMethod('1.4.4', ['POST'], (k) => ({ method: 'GET', path: op.path(k, 'telemetry') })),
  wrongMethod('2.4.1', ['GET', 'POST'], (k) => ({ method: 'DELETE', path: op.path(k, 'attributes') })),
  wrongMethod('3.4.1', ['GET', 'POST'], (k) => ({ method: 'PUT', path: op.path(k, 'attributes') })),
  wrongMethod('4.4.1', ['GET'], (k) => ({ method: 'POST', path: op.path(k, 'attributes/updates') })),
  wrongMethod('5.4.1', ['GET', 'POST'], (k) => ({ method: 'DELETE', path: op.path(k, 'rpc') })),
  wrongMethod('6.4.1', ['POST'], (k) => ({ method: 'GET', path: op.path(k, 'rpc/1') })),
  wrongMethod('7.4.1', ['GET', 'POST'], (k) => ({ method: 'PUT', path: op.path(k, 'rpc') })),
  wrongMethod('8.4.1', ['POST'], (k) => ({ method: 'GET', path: op.path(k, 'claim') })),
  wrongMethod('10.4.1', ['GET'], (k) => ({ method: 'POST', path: op.path(k, 'firmware') })),
  wrongMethod('9.4.1', ['POST'], () => ({ method: 'GET', path: '/api/v1/provision' })),
];
