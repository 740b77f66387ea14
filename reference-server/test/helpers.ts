// Test harness: a real server on 127.0.0.1:0 with a real SQLite file, and undici requests whose
// responses are checked against the contract.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { request, type Dispatcher } from 'undici';
import { createSqliteStore } from '../store/sqlite.js';
import { startServer, type RunningServer, type StartOptions } from '../server.js';
import { newDevice } from '../device-records.js';
import type { ServerConfig } from '../config.js';
import type { ServerContext } from '../context.js';
import type { DeviceRecord, KvEntry, Store } from '../store/types.js';
import { checkAgainstContract, type Method, type Response } from './contract-responses.js';

export type { Response } from './contract-responses.js';

export interface TestServer extends RunningServer {
  ctx: ServerContext;
  dbPath: string;
  dir: string;
}

/**
 * A file store at `path` that may grow by `spare` pages beyond what it holds now (SQLite's
 * max_page_count): a store that fills up, and answers SQLITE_FULL, without a full disk. A spell of
 * refused writes ends at the first commit after it (no quiet time to wait out).
 */
export async function storeWithRoomFor(path: string, spare: number): Promise<Store> {
  await createSqliteStore(path).close();
  const file = new Database(path);
  const pages = file.pragma('page_count', { simple: true }) as number;
  file.close();
  return createSqliteStore(path, { maxPageCount: pages + spare, outageQuietMs: 0 });
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'dhi-test-'));
}

/** The longest interval a Node timer takes. */
const WHEN_ASKED = 2 ** 31 - 1;

/** `options`: a store of the test's own (at dir/dhi.db), where the log lines go. */
export async function startTestServer(config: Partial<ServerConfig> = {}, dir = tempDir(), options: StartOptions = {}): Promise<TestServer> {
  const dbPath = join(dir, 'dhi.db');
  // Device state is saved when a test asks (or the server stops), so that no key list changes under a test.
  const state = { activityReportIntervalMs: WHEN_ASKED, stateCheckIntervalMs: WHEN_ASKED };
  const server = await startServer({ host: '127.0.0.1', port: 0, httpsPort: -1, db: dbPath, logLevel: 'silent', ...state, ...config }, options);
  return { ...server, ctx: server.app.dhi, dbPath, dir };
}

export async function stopTestServer(server: TestServer, removeFiles = true): Promise<void> {
  await server.close();
  if (removeFiles) rmSync(server.dir, { recursive: true, force: true });
}

let counter = 0;

/** A device in the default profile, created through the store (the control API is tested apart). */
export async function createDevice(ctx: ServerContext, fields: Partial<DeviceRecord> = {}): Promise<DeviceRecord> {
  counter++;
  const device = {
    ...newDevice({ name: `DW${String(counter).padStart(8, '0')}-${process.pid}`, profileId: ctx.store.defaultProfile().id }),
    ...fields,
  };
  await ctx.store.write(() => ctx.store.insertDevice(device));
  return device;
}

/** store.writeTelemetry as a promise. */
export function writeTelemetry(store: Store, deviceId: string, entries: KvEntry[]): Promise<void> {
  return new Promise((resolve, reject) => store.writeTelemetry(deviceId, entries, (error) => (error ? reject(error) : resolve()), undefined));
}

/** The ts of every row of the device's time series in the store's database file, read with SQL as an outside reader would. */
export function storedTimestamps(dbPath: string, deviceId: string): number[] {
  const file = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return file.prepare('SELECT ts FROM telemetry WHERE device = (SELECT num FROM devices WHERE id = ?)').pluck().all(deviceId) as number[];
  } finally {
    file.close();
  }
}

/** The rows of the device's time series in the store's database file, once a read of the device has folded in the telemetry answered before it. */
export async function storedRows(store: Store, dbPath: string, deviceId: string): Promise<number> {
  await store.readTelemetry(deviceId, () => undefined);
  return storedTimestamps(dbPath, deviceId).length;
}

/** One request; its response must be in the document (contract-responses.ts). */
export async function call(
  base: string,
  method: Method,
  path: string,
  body?: string | object,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const res = await request(base + path, {
    method,
    body: payload,
    headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
    signal,
  });
  return checked(method, path, res);
}

/** Reads a response to the end and checks it against the contract. */
export async function checked(method: Method, path: string, res: Dispatcher.ResponseData): Promise<Response> {
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const text = bytes.toString();
  const response = { status: res.statusCode, headers: res.headers, bytes, text, json: () => JSON.parse(text) };
  checkAgainstContract(method, path, response);
  return response;
}
