// Headless Chromium for the tests that open our HTML reports. A system `chromium` on the PATH wins;
// otherwise the browser shipped inside the @sparticuz/chromium package (a brotli-compressed
// headless shell with the NSS libraries and a font it needs), unpacked once per version into the
// temp folder, so that `npm test` passes on a machine with nothing but Node and npm. When neither
// is there, launching throws and the test fails: a browser test never skips.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface BrowserChoice {
  executablePath: string;
  /** `system` (a chromium on the PATH) or `packed` (@sparticuz/chromium). */
  source: 'system' | 'packed';
  env?: Record<string, string>;
}

function systemChromium(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

function unpackTar(archive: string, into: string): void {
  const result = spawnSync('tar', ['-x', '-C', into], { input: brotliDecompressSync(readFileSync(archive)) });
  if (result.status !== 0) throw new Error(`could not unpack ${archive}: ${result.error?.message ?? result.stderr.toString()}`);
}

/** Unpacks the packed browser into `<tmp>/dhi-chromium-<version>` (atomically: test files run in parallel). */
function packedChromium(): BrowserChoice {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`no chromium on the PATH, and the packed one (@sparticuz/chromium) is for linux x64 only, not ${process.platform} ${process.arch}: install chromium`);
  }
  const root = join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const dir = join(tmpdir(), `dhi-chromium-${version}`);
  if (!existsSync(join(dir, 'ready'))) {
    const scratch = `${dir}.${process.pid}`;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    writeFileSync(join(scratch, 'chromium'), brotliDecompressSync(readFileSync(join(root, 'bin', 'chromium.br'))), { mode: 0o755 });
    unpackTar(join(root, 'bin', 'al2023.tar.br'), scratch); // lib/: libnss3, libnspr4, libexpat
    unpackTar(join(root, 'bin', 'fonts.tar.br'), scratch); // fonts/: Open Sans
    writeFileSync(
      join(scratch, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>/usr/share/fonts</dir><dir>${dir}/fonts</dir><cachedir>${dir}/fonts-cache</cachedir></fontconfig>\n`,
    );
    writeFileSync(join(scratch, 'ready'), version);
    try {
      renameSync(scratch, dir);
    } catch {
      rmSync(scratch, { recursive: true, force: true }); // another test file unpacked it first
    }
  }
  const libraryPath = [join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter);
  return {
    executablePath: join(dir, 'chromium'),
    source: 'packed',
    env: { ...(process.env as Record<string, string>), LD_LIBRARY_PATH: libraryPath, FONTCONFIG_FILE: join(dir, 'fonts.conf') },
  };
}

function chooseBrowser(): BrowserChoice {
  const system = systemChromium();
  return system ? { executablePath: system, source: 'system' } : packedChromium();
}

export async function launchBrowser(): Promise<Browser> {
  const choice = chooseBrowser();
  try {
    return await chromium.launch({ executablePath: choice.executablePath, env: choice.env, args: ARGS });
  } catch (error) {
    throw new Error(`could not start the ${choice.source} Chromium at ${choice.executablePath}: ${(error as Error).message}`);
  }
}
