// The calibration target: an HTTP server whose answer times are known because it sets them. It
// speaks the device API and the part of the control API the simulator uses, and answers every
// request `latencyMs` after it arrived (a long poll: when its event comes, plus `latencyMs`, or at
// its timeout). It can fall silent for a while (it holds everything, then answers), answer a share
// of the simulator's requests 503 and never answer another share. It records what it really did,
// per simulator path: each outcome, and how long it held each request (arrival -> answer written,
// or -> the client gave up). Timestamps are clock.ts milliseconds, the simulator's own clock.
// This file serves HTTP; target-timing.ts keeps the plan and the records, target-handlers.ts the answers.
import { createServer, type Server } from 'node:http';
import { pathRegex } from '../../spec/path-template.js';
import { monoNow } from '../clock.js';
import type { Templates } from '../routes.js';
import { createHandlers, MEASURED, SETTING_UP, type Route } from './target-handlers.js';
import { createTiming, send, type TargetPlan, type TargetRecords } from './target-timing.js';

export type { TargetPlan, TargetRecords } from './target-timing.js';

export interface KnownTarget {
  server: Server;
  records(): TargetRecords;
}

/** Each route's method and path (its parameters captured), compiled once, tried in this order. */
function compileRoutes({ device: d, control: c }: Templates): [string, RegExp, Route][] {
  const table: [string, string, Route][] = [
    ['POST', d.telemetry, 'telemetry'],
    ['GET', d.attributeUpdates, 'attributeUpdates'],
    ['GET', d.attributes, 'attributes'],
    ['GET', d.rpcPoll, 'rpcPoll'],
    ['POST', d.rpcReply, 'rpcReply'],
    ['POST', d.clientRpc, 'clientRpc'],
    ['POST', d.provision, 'provision'],
    ['GET', d.firmware, 'firmware'],
    ['POST', c.login, 'login'],
    ['POST', c.saveDevice, 'saveDevice'],
    ['GET', c.getDeviceCredentials, 'credentials'],
    ['DELETE', c.deleteDevice, 'deleteDevice'],
    ['GET', c.getTenantDevices, 'findDevice'],
    ['POST', c.saveDeviceAttributes, 'saveAttributes'],
    ['POST', c.sendRpcV1, 'rpcV1'],
    ['POST', c.sendRpcV2, 'rpcV2'],
  ];
  return table.map(([method, template, route]) => [method, pathRegex(template, { capture: true }), route]);
}

export function createKnownTarget(templates: Templates, plan: TargetPlan): KnownTarget {
  const routes = compileRoutes(templates);
  const timing = createTiming(plan);
  const { handle, counts } = createHandlers(timing);

  const server = createServer((req, res) => {
    const arrivedAt = monoNow();
    const url = new URL(req.url ?? '/', 'http://target');
    let found: [Route, string[]] | undefined;
    for (const [method, pattern, route] of routes) {
      const match = method === req.method ? pattern.exec(url.pathname) : null;
      if (match) {
        found = [route, match.slice(1).map(decodeURIComponent)];
        break;
      }
    }
    if (!found) return void send(res, 404);
    const [route, params] = found;
    timing.arrived(!SETTING_UP.has(route), MEASURED[route]);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(route, params, url.searchParams, body, res, arrivedAt));
  });
  server.keepAliveTimeout = 5_000; // as dhi serve's default: idle connections close

  return { server, records: () => ({ plan, ...timing.records(), ...counts() }) };
}
