// What a success means: firmware counts only when its bytes match fw_checksum, an RPC answer only
// when it carries its command's sequence number. Against the reference server over real sockets.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, loginAs, newDeviceVia, upload, type Api } from '../../reference-server/test/control-helpers.js';
import { startTestServer, stopTestServer, tempDir, type TestServer } from '../../reference-server/test/helpers.js';
import { simulate } from '../simulate.js';
import { replyMatches } from '../driver.js';
import { scenarioFromJson } from '../scenario.js';

describe('what counts as a success', () => {
  let server: TestServer;
  let api: Api;
  const dir = tempDir();

  beforeAll(async () => {
    server = await startTestServer();
    api = await adminApi(server);
  });
  afterAll(async () => {
    await stopTestServer(server);
  });

  it('checks downloaded firmware against fw_checksum: a mismatch is a checksum error', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31) % 251));
    const info = await api('POST', '/api/otaPackage', { title: 'sim-fw', version: '2.0', type: 'FIRMWARE', deviceProfileId: { entityType: 'DEVICE_PROFILE', id: server.ctx.store.defaultProfile().id } });
    const packageId = (info.json() as { id: { id: string } }).id.id;
    expect((await upload(server, await loginAs(server), `/api/otaPackage/${packageId}?checksumAlgorithm=MURMUR3_128`, bytes)).status).toBe(200);
    const firmwareId = { entityType: 'OTA_PACKAGE', id: packageId };
    const good = await newDeviceVia(api, { firmwareId });
    const bad = await newDeviceVia(api, { firmwareId });
    // The server announces a checksum the bytes do not have.
    expect((await api('POST', `/api/plugins/telemetry/DEVICE/${bad.id}/SHARED_SCOPE`, { fw_checksum: '00'.repeat(16) })).status).toBe(200);
    const tokens = join(dir, 'firmware-tokens.txt');
    writeFileSync(tokens, `${good.token}\n${bad.token}\n`);
    const scenario = scenarioFromJson({ name: 'firmware', extends: 'telemetry', telemetry: false, firmware: { title: 'sim-fw', version: '2.0', chunkSize: 1024 } });
    const { summary } = await simulate(
      {
        target: server.httpUrl, controlUrl: server.httpUrl, username: 'tenant@thingsboard.org', password: 'tenant', devices: 2, durationMs: 1500, scenario,
        rampPerSecond: null, provision: null, tokensFile: tokens, workers: 0, seed: 1, keepDevices: true, insecure: false, warmupMs: 0, maxConnectionsPerDevice: 16, requestTimeoutMs: 10_000,
      },
      [],
      join(dir, 'reports'),
    );
    expect(summary.paths.firmware).toMatchObject({ count: 1, errors: 1, errorsByClass: { checksum: 1 } });
    expect(summary.paths.firmware!.latencyMs.count).toBe(2); // the failed download is timed too
  });

  it('takes an RPC answer as the reply to its command only when the sequence number matches', () => {
    expect(replyMatches('{"result":"ok","method":"simCommand","seq":41,"device":3}', 41)).toBe(true);
    expect(replyMatches('{"result":"ok","method":"simCommand","seq":40,"device":3}', 41)).toBe(false);
    expect(replyMatches('{"result":"ok"}', 41)).toBe(false);
    expect(replyMatches('', 41)).toBe(false);
    expect(replyMatches('null', 41)).toBe(false);
  });
});
