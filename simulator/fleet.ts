// Bringing the fleet into existence: from a tokens file, through device provisioning
// (operation 9), or by creating devices through the control API. Devices this run created are
// deleted at the end unless asked to keep them.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { mapConcurrent, type Control } from './control.js';
import { tlsOptions } from './http.js';
import { fill } from './routes.js';
import type { Body } from '../spec/types.js';

export interface FleetMember {
  index: number;
  token: string;
  name?: string;
  /** Control API id; without it the driver cannot address the device. */
  id?: string;
}

export class FleetError extends Error {
  /** `usage`: the user's input is wrong (a tokens file); otherwise the server refused. */
  constructor(
    message: string,
    readonly usage = true,
  ) {
    super(message);
    this.name = 'FleetError';
  }
}

const CREATE_CONCURRENCY = 16;

export function deviceName(runId: string, index: number): string {
  return `sim-${runId}-DW${String(index).padStart(8, '0')}`;
}

/** A tokens file: one device a line, `token` or `token,deviceId`; blank lines and `#` comments skipped. */
export function readTokensFile(file: string, count: number): FleetMember[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new FleetError(`--tokens ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  const members: FleetMember[] = [];
  for (const [n, line] of text.split('\n').entries()) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [token, id, extra] = trimmed.split(/[\s,]+/);
    if (extra !== undefined || token.length > 256) throw new FleetError(`--tokens ${file}, line ${n + 1}: expected "token" or "token,deviceId"`);
    members.push({ index: members.length, token, id });
    if (members.length === count) break;
  }
  if (members.length < count) throw new FleetError(`--tokens ${file}: ${count} devices requested, the file has ${members.length}`);
  return members;
}

/** `onCreated` hears of each device as soon as it exists, so a failure half-way can still clean up. */
export async function createThroughControl(control: Control, runId: string, count: number, onCreated: (member: FleetMember) => void): Promise<FleetMember[]> {
  return mapConcurrent(Array.from({ length: count }, (_, i) => i), CREATE_CONCURRENCY, async (index) => {
    const name = deviceName(runId, index);
    const { id, token } = await control.createDevice(name, `${runId}${String(index).padStart(8, '0')}`);
    const member = { index, token, name, id };
    onCreated(member);
    return member;
  });
}

export interface ProvisionOptions {
  url: string;
  template: string;
  key: string;
  secret: string;
  insecure: boolean;
}

/** Provision every device (operation 9); the control API, when reachable, supplies the ids. */
export async function createThroughProvisioning(
  options: ProvisionOptions,
  runId: string,
  count: number,
  control: Control | undefined,
  onCreated: (member: FleetMember) => void,
): Promise<FleetMember[]> {
  const url = new URL(options.url);
  const path = url.pathname.replace(/\/+$/, '') + fill(options.template, {});
  const pool = new Pool(url.origin, { connections: CREATE_CONCURRENCY, headersTimeout: 30_000, bodyTimeout: 30_000, ...tlsOptions(options.insecure) });
  try {
    return await mapConcurrent(Array.from({ length: count }, (_, i) => i), CREATE_CONCURRENCY, async (index) => {
      const name = deviceName(runId, index);
      const response = await pool.request({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deviceName: name, provisionDeviceKey: options.key, provisionDeviceSecret: options.secret } satisfies Body<'postProvision'>),
      });
      const text = await response.body.text();
      const answer = safeParse(text) as { status?: string; credentialsValue?: string; credentialsType?: string; errorMsg?: string } | undefined;
      if (response.statusCode !== 200 || answer?.status !== 'SUCCESS' || answer.credentialsType !== 'ACCESS_TOKEN' || !answer.credentialsValue) {
        throw new FleetError(`provisioning ${name} failed: ${response.statusCode} ${text.slice(0, 200)}`, false);
      }
      const member = { index, token: answer.credentialsValue, name, id: control ? await control.findDevice(name) : undefined };
      onCreated(member);
      return member;
    });
  } finally {
    await pool.close();
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function deleteFleet(control: Control, members: FleetMember[]): Promise<void> {
  await mapConcurrent(
    members.filter((m) => m.id),
    CREATE_CONCURRENCY,
    (m) => control.deleteDevice(m.id as string),
  );
}
