// `dhi demo` (`npm start`): the reference server on the embedded store, the conformance suite and
// a mixed simulation against it, reports/index.html linking both, then serve until Ctrl-C.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { runConform } from '../conformance/cli.js';
import { countsInWords } from '../conformance/report/console.js';
import type { Counts } from '../conformance/report/json.js';
import { startServer } from '../reference-server/server.js';
import { EXIT, simulate } from './simulate.js';
import { createControl } from './control.js';
import { DEFAULT_MAX_CONNECTIONS_PER_DEVICE, DEFAULT_REQUEST_TIMEOUT_MS } from './simulation.js';
import { interruptOnSigint } from './interrupt.js';
import { createProgress } from './progress.js';
import { formatMs } from './report/format.js';
import { escapeHtml } from './report/svg.js';
import { renderTable } from './report/table.js';
import { loadTemplates } from './routes.js';
import { builtinScenario } from './scenario.js';

export interface DemoOptions {
  port: number;
  httpsPort: number;
  db: string;
  devices: number;
  duration: number;
  reports: string;
}

const USERNAME = 'tenant@thingsboard.org';
const PASSWORD = 'tenant';
const DEMO_DEVICE = 'demo-device';

interface Link {
  title: string;
  href?: string;
  note: string;
}

function firstExisting(dir: string, names: string[]): string | undefined {
  return names.map((n) => join(dir, n)).find((f) => existsSync(f));
}

function writeIndex(reportsDir: string, links: Link[], serverUrl: string): string {
  const file = join(reportsDir, 'index.html');
  const items = links
    .map((l) => `<li>${l.href ? `<a href="${escapeHtml(l.href)}">${escapeHtml(l.title)}</a>` : escapeHtml(l.title)}: ${escapeHtml(l.note)}</li>`)
    .join('\n');
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(
    file,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>dhi demo reports</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:32px;max-width:800px}</style></head><body>
<h1>dhi demo</h1><p>Reference server: <code>${escapeHtml(serverUrl)}</code> (generated ${escapeHtml(new Date().toISOString())})</p>
<ul>
${items}
</ul></body></html>
`,
  );
  return file;
}

async function demoToken(url: string): Promise<string> {
  const templates = await loadTemplates();
  const control = createControl({ url, username: USERNAME, password: PASSWORD, templates: templates.control, connections: 2, requestTimeoutMs: 30_000 });
  try {
    await control.login();
    const id = await control.findDevice(DEMO_DEVICE);
    return id ? await control.token(id) : (await control.createDevice(DEMO_DEVICE)).token;
  } finally {
    await control.close();
  }
}

export async function runDemo(options: DemoOptions): Promise<void> {
  if (options.db !== ':memory:') mkdirSync(dirname(options.db), { recursive: true });
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({ port: options.port, httpsPort: options.httpsPort, db: options.db, logLevel: 'warn' });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const hint = e.code === 'EADDRINUSE' ? ' (another server holds the port: pass --port and --https-port)' : '';
    console.error(`dhi demo: cannot start the reference server: ${e.message}${hint}`);
    process.exitCode = 1;
    return;
  }
  const url = server.httpUrl;
  console.log(`dhi demo: reference server at ${url}${server.httpsUrl ? ` and ${server.httpsUrl}` : ''} (store ${options.db})`);
  const links: Link[] = [];

  console.log('dhi demo: running the conformance suite');
  try {
    const outcome = await runConform({ target: url, reportDir: join(options.reports, 'conformance'), print: () => {} });
    const page = firstExisting(outcome.reportDir, ['index.html', 'report.html']);
    const counts = countsInWords(outcome.counts as Counts);
    links.push({ title: 'Conformance report', href: relative(options.reports, page ?? outcome.reportDir), note: `${counts} (exit code ${outcome.exitCode})` });
    console.log(`dhi demo: conformance ${counts}`);
  } catch (error) {
    console.error(`dhi demo: the conformance suite failed to run: ${(error as Error).message}`);
    links.push({ title: 'Conformance', note: `failed to run: ${(error as Error).message}` });
  }

  console.log(`dhi demo: simulating ${options.devices} devices (mixed scenario) for ${options.duration / 1000}s (Ctrl-C stops it)`);
  // Ctrl-C during the simulation stops it as in dhi simulate (devices deleted, reports written), then the demo ends.
  const interrupt = interruptOnSigint((text) => process.stdout.write(text));
  try {
    const outcome = await simulate(
      {
        target: url,
        controlUrl: url,
        username: USERNAME,
        password: PASSWORD,
        devices: options.devices,
        durationMs: options.duration,
        scenario: builtinScenario('mixed'),
        // Joining over two seconds keeps the connection burst inside the server's accept backlog.
        rampPerSecond: 500,
        provision: null,
        tokensFile: null,
        // The devices run in a child process so that the server keeps this event loop to itself.
        workers: 1,
        seed: 1,
        keepDevices: false,
        insecure: false,
        warmupMs: null,
        maxConnectionsPerDevice: DEFAULT_MAX_CONNECTIONS_PER_DEVICE,
        requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
      },
      [],
      join(options.reports, 'simulate'),
      createProgress({ write: (t) => process.stdout.write(t), isTTY: Boolean(process.stdout.isTTY), columns: process.stdout.columns }),
      interrupt.signal,
    );
    console.log(`\n${renderTable(outcome.summary)}`);
    const s = outcome.summary;
    links.push({
      title: 'Simulation report',
      href: relative(options.reports, join(outcome.reportDir, 'report.html')),
      note: `${s.interrupted ? 'INTERRUPTED, ' : ''}${s.devices} devices, ${s.scenario.name}, steady-state rpc p99 ${s.paths.rpc ? formatMs(s.paths.rpc.latencyMs.p99) : '-'} ms, telemetry p99 ${s.paths.telemetry ? formatMs(s.paths.telemetry.latencyMs.p99) : '-'} ms`,
    });
  } catch (error) {
    console.error(`dhi demo: the simulation failed: ${(error as Error).message}`);
    links.push({ title: 'Simulation', note: `failed: ${(error as Error).message}` });
  } finally {
    interrupt.dispose();
  }

  const index = writeIndex(options.reports, links, url);
  console.log(`dhi demo: reports linked from ${index}`);
  if (interrupt.signal.aborted) {
    console.log('dhi demo: interrupted during the simulation; its devices are deleted. Stopping the server.');
    await server.close();
    process.exitCode = EXIT.interrupted;
    return;
  }
  try {
    const token = await demoToken(url);
    console.log(`dhi demo: a demo device token: ${token}`);
    console.log(`  try: curl -X POST -H 'content-type: application/json' -d '{"temperature":21.5}' ${url}/api/v1/${token}/telemetry`);
  } catch (error) {
    console.error(`dhi demo: no demo device (control API: ${(error as Error).message})`);
  }
  console.log(`dhi demo: serving ${url} until Ctrl-C`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.log('\ndhi demo: stopping');
  await server.close();
}
