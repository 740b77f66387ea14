// ThingsBoard's REST paths that dhi does not model (control-api/thingsboard-rest.ts): each answers
// 501 with ThingsBoard's error JSON naming what is left out; paths ThingsBoard lacks stay 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, stopTestServer, type TestServer } from './helpers.js';
import { loginAs } from './control-helpers.js';
import { operationOf, type Method } from './contract-responses.js';
import { UNMODELLED_AREAS } from '../control-api/thingsboard-rest.js';
import { asksForToken } from '../control-api/token-paths.js';

let server: TestServer;
let auth: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  auth = { 'x-authorization': `Bearer ${await loginAs(server)}` };
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
        const res = await call(server.httpUrl, method as Method, urlOf(path), method === 'GET' || method === 'DELETE' ? undefined : {}, auth);
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
      const res = await call(server.httpUrl, 'GET', path, undefined, auth);
      expect(res.status, path).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, errorCode: 32, message: `No endpoint GET ${path}` });
    }
    expect((await call(server.httpUrl, 'PUT', '/api/customer', undefined, auth)).status).toBe(405);
  });

  it('ask for a token first, as ThingsBoard\'s security filter does, except on the paths it leaves open', async () => {
    const open: string[] = [];
    for (const { routes } of UNMODELLED_AREAS) {
      for (const route of routes) {
        const [method, path] = route.split(' ');
        const url = urlOf(path);
        const token = asksForToken(url);
        // A malformed body: the 401 comes before the body is read.
        const body = method === 'GET' || method === 'DELETE' ? undefined : token ? '{not json' : {};
        const res = await call(server.httpUrl, method as Method, url, body);
        if (!token) {
          open.push(route);
          expect.soft(res.status, route).toBe(501);
          continue;
        }
        expect.soft(res.status, route).toBe(401);
        expect.soft(res.json(), route).toMatchObject({ status: 401, errorCode: 10, message: 'Authentication failed' });
      }
    }
    // ThingsBoard's open paths among them: the mail OAuth2 callback, the connectivity certificates,
    // public images, and the /api/noauth/ mappings (mobile app, OAuth2 clients, QR codes).
    expect(open).toEqual(expect.arrayContaining([
      'GET /api/admin/mail/oauth2/code', 'GET /api/device-connectivity/{protocol}/certificate/download',
      'GET /api/images/public/{publicResourceKey}', 'GET /api/noauth/qr',
    ]));
    expect(open.every((route) => !asksForToken(urlOf(route.split(' ')[1])))).toBe(true);
    for (const path of ['/api/nothing-here', '/api/v2/devices']) {
      expect((await call(server.httpUrl, 'GET', path)).status, path).toBe(401);
    }
    expect((await call(server.httpUrl, 'PUT', '/api/customer')).status).toBe(401);
    // The device API and the open prefixes keep their own answers.
    expect((await call(server.httpUrl, 'GET', '/api/v1/some-token/nothing')).status).toBe(404);
    expect((await call(server.httpUrl, 'GET', '/api/noauth/nothing')).status).toBe(404);
    expect((await call(server.httpUrl, 'GET', '/docs/nothing')).status).toBe(404);
  });
});
