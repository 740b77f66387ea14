// ThingsBoard's REST paths that dhi does not model (control-api/thingsboard-rest.ts): each answers
// 501 with ThingsBoard's error JSON naming what is left out; paths ThingsBoard lacks stay 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, stopTestServer, type TestServer } from './helpers.js';
import { operationOf, type Method } from './contract-responses.js';
import { UNMODELLED_AREAS } from '../control-api/thingsboard-rest.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => stopTestServer(server));

/** A concrete URL for a route: each path variable a uuid-looking value. */
const urlOf = (path: string) => path.replace(/\{\w+\}/g, '6a1bd9b0-0000-4000-8000-000000000000');

describe('ThingsBoard paths dhi does not model', () => {
  it('are none of the contract\'s operations', () => {
    const routes = UNMODELLED_AREAS.flatMap((area) => area.routes);
    expect(routes.length).toBeGreaterThan(400);
    for (const route of routes) {
      const [method, path] = route.split(' ');
      expect(operationOf(method as Method, urlOf(path)), route).toBeUndefined();
    }
  });

  it('each answer 501 with ThingsBoard\'s error JSON naming the area and the controller', async () => {
    let walked = 0;
    for (const { controller, what, routes } of UNMODELLED_AREAS) {
      for (const route of routes) {
        const [method, path] = route.split(' ');
        const res = await call(server.httpUrl, method as Method, urlOf(path), method === 'GET' || method === 'DELETE' ? undefined : {});
        expect.soft(res.status, route).toBe(501);
        expect.soft(res.json(), route).toMatchObject({
          status: 501, errorCode: 2, message: `dhi does not model ${what}: ${route} (ThingsBoard's ${controller}) is not available`,
        });
        walked++;
      }
    }
    expect(walked).toBe(UNMODELLED_AREAS.reduce((n, area) => n + area.routes.length, 0));
  });

  it('leave 404 for paths ThingsBoard does not have either, and 405 for another method of a modelled path', async () => {
    for (const path of ['/api/nothing-here', '/api/asset/6a1bd9b0-0000-4000-8000-000000000000/extra', '/api/v2/devices']) {
      const res = await call(server.httpUrl, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, errorCode: 32, message: `No endpoint GET ${path}` });
    }
    expect((await call(server.httpUrl, 'PUT', '/api/customer')).status).toBe(405);
  });
});
