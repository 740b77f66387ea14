// dhi demo, stopped with Ctrl-C during its simulation: it says so, deletes the devices the
// simulation created, writes what was measured, and exits 130.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../reference-server/test/helpers.js';
import { dhi } from './run-cli.js';

describe('dhi demo', () => {
  it('stops its simulation on Ctrl-C as dhi simulate does: says so, cleans up, writes the reports', async () => {
    const dir = tempDir();
    const db = join(dir, 'dhi.db');
    const reports = join(dir, 'reports');
    let signalled = false;
    const { code, stdout } = await dhi(
      ['demo', '--port', '0', '--https-port', '-1', '--db', db, '--devices', '20', '--duration', '10m', '--reports', reports],
      (out, child) => {
        // Once the simulation's load is on, as a user would press it.
        if (!signalled && /steady\s+errors/.test(out)) {
          signalled = true;
          child.kill('SIGINT');
        }
      },
    );
    expect(signalled).toBe(true);
    expect(code).toBe(130);
    expect(stdout).toContain('interrupted: stopping the run');
    expect(stdout).toContain('cleanup: deleting the 20 devices of this run');
    const [run] = readdirSync(join(reports, 'simulate'));
    const summary = JSON.parse(readFileSync(join(reports, 'simulate', run, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ interrupted: true, passed: false, devices: 20 });
    expect(readFileSync(join(reports, 'index.html'), 'utf8')).toContain('INTERRUPTED');
    const store = new Database(db, { readonly: true });
    try {
      expect(store.prepare("SELECT count(*) AS n FROM devices WHERE name LIKE 'sim-%'").get()).toEqual({ n: 0 });
    } finally {
      store.close();
    }
  }, 120_000);
});
