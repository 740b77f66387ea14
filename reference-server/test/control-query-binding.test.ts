// Query parameters as ThingsBoard (Spring) binds them, and PageLink's search and sort on the lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, stopTestServer, type TestServer } from './helpers.js';
import { newDeviceVia, startAdminServer, type Api } from './control-helpers.js';

let server: TestServer;
let api: Api;
beforeAll(async () => ({ server, api } = await startAdminServer()));
afterAll(() => stopTestServer(server));

describe('query booleans', () => {
  it('accept true/false in any case, on/off, yes/no and 1/0; an empty value is the default; anything else is 400', async () => {
    const device = await newDeviceVia(api);
    await call(server.httpUrl, 'POST', `/api/v1/${device.token}/telemetry`, { ts: 1000, values: { n: 7 } });
    const path = `/api/plugins/telemetry/DEVICE/${device.id}/values/timeseries?keys=n&useStrictDataTypes=`;
    for (const yes of ['true', 'True', 'TRUE', 'on', 'Yes', '1', ' yes ']) {
      expect((await api('GET', path + encodeURIComponent(yes))).json(), yes).toEqual({ n: [{ ts: 1000, value: 7 }] });
    }
    for (const no of ['false', 'False', 'off', 'NO', '0', '']) {
      expect((await api('GET', path + encodeURIComponent(no))).json(), no).toEqual({ n: [{ ts: 1000, value: '7' }] });
    }
    const bad = await api('GET', `${path}maybe`);
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400, errorCode: 31 });
  });
});

describe('textSearch and sorting', () => {
  it('finds devices by a case-insensitive substring of the name or the label', async () => {
    const tag = `Q${Date.now().toString(36)}`;
    await api('POST', '/api/device', { name: `north-${tag}-pump`, label: 'Basement' });
    await api('POST', '/api/device', { name: `south-${tag}-fan`, label: 'ATTIC Fan' });
    await api('POST', '/api/device', { name: 'unrelated-device', label: `label ${tag.toLowerCase()} here` });
    const names = async (query: string) =>
      ((await api('GET', `/api/tenant/devices?pageSize=100&${query}`)).json() as { data: { name: string }[] }).data.map((d) => d.name).sort();
    expect(await names(`textSearch=${tag.toUpperCase()}`)).toEqual(['north-' + tag + '-pump', 'south-' + tag + '-fan', 'unrelated-device']);
    expect(await names('textSearch=attic')).toEqual([`south-${tag}-fan`]);
    expect(await names(`textSearch=${tag}-PU`)).toEqual([`north-${tag}-pump`]);
    // LIKE wildcards are text, not patterns.
    expect(await names('textSearch=%25')).toEqual([]);
  });

  it('sorts devices by name both ways, and refuses a property the list does not have', async () => {
    for (const name of ['sort-b', 'sort-c', 'sort-a']) await api('POST', '/api/device', { name });
    const sorted = async (order: string) =>
      ((await api('GET', `/api/tenant/devices?pageSize=3&textSearch=sort-&sortProperty=name&sortOrder=${order}`)).json() as { data: { name: string }[] }).data.map((d) => d.name);
    expect(await sorted('ASC')).toEqual(['sort-a', 'sort-b', 'sort-c']);
    expect(await sorted('DESC')).toEqual(['sort-c', 'sort-b', 'sort-a']);
    expect((await api('GET', '/api/tenant/devices?pageSize=3&sortProperty=token')).status).toBe(400);
    expect((await api('GET', '/api/tenant/devices?pageSize=3&sortProperty=name&sortOrder=UP')).status).toBe(400);
  });

  it('searches and sorts device profiles and OTA packages', async () => {
    for (const name of ['Zeta-profile', 'alpha-profile']) await api('POST', '/api/deviceProfile', { name });
    const profiles = (await api('GET', '/api/deviceProfiles?pageSize=10&textSearch=PROFILE&sortProperty=name&sortOrder=DESC')).json() as { data: { name: string }[] };
    expect(profiles.data.map((p) => p.name)).toEqual(['Zeta-profile', 'alpha-profile']);
    for (const title of ['fw-beta', 'fw-alpha']) await api('POST', '/api/otaPackage', { title, version: '1', type: 'FIRMWARE' });
    const packages = (await api('GET', '/api/otaPackages?pageSize=10&textSearch=FW-&sortProperty=title')).json() as { data: { title: string }[] };
    expect(packages.data.map((p) => p.title)).toEqual(['fw-alpha', 'fw-beta']);
  });
});
