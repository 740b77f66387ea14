// The store's file, claimed before anything is written to it: its path must lead to a file this
// user can read and write, in a folder it can write (SQLite keeps its -wal and -shm files there),
// the file must be a dhi database of a schema this dhi knows (or be new), and no other `dhi serve`
// may hold it. Each fault is a StoreFileError that names the file and what to do; none of the checks
// changes the file (it is read through a read-only connection, which never checkpoints).
//
// The claim is a lock that no process outlives: an exclusive SQLite transaction held open on the
// companion file `<db>-lock`, that is POSIX record locks, which the kernel drops when their process
// ends, kill -9 included (SQLite also refuses a second holder within one process). A pid file would
// go stale after a crash, and a lock on the database file itself would shut out the store's own
// connections. The lock file stays: removing it would let two servers each lock a file of its own.
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, type ConnectionOptions } from './sqlite-connection.js';
import { migrate, SCHEMA_VERSION } from './sqlite-schema.js';
import { storeFailure } from './store-failure.js';
import { StoreFileError, StoreUnavailable } from './types.js';

const codeOf = (error: unknown) => String((error as { code?: unknown }).code ?? 'unknown');

/**
 * The store's own connection to `path`, claimed, checked and migrated, and the release of the claim
 * (at the store's close). A disk too full for the migration is a StoreFileError too.
 */
export function openStoreFile(path: string, options: ConnectionOptions): { db: Database.Database; release: () => void } {
  const release = path === ':memory:' ? () => {} : claimStoreFile(path, SCHEMA_VERSION);
  let db: Database.Database | undefined;
  try {
    db = openDatabase(path, options);
    migrate(db, randomUUID(), Date.now());
    return { db, release };
  } catch (error) {
    db?.close();
    release();
    const failure = storeFailure(error);
    if (!(failure instanceof StoreUnavailable)) throw error;
    throw new StoreFileError(`the database ${path} cannot take writes: ${failure.message}; free some room (or mend the disk) and start again`);
  }
}

function claimStoreFile(path: string, schemaVersion: number): () => void {
  const fault = (problem: string, remedy: string) => new StoreFileError(`the database ${path} ${problem}; ${remedy}`);
  const folder = dirname(path);
  try {
    mkdirSync(folder, { recursive: true });
    accessSync(folder, constants.W_OK);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') throw fault(`cannot be kept in ${folder}: that is a file, not a folder`, 'give --db a path in a folder');
    throw fault(`cannot be kept in ${folder}: that folder cannot be made or written (${codeOf(error)})`, 'give --db a path in a folder this user can write');
  }
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) throw fault('is a folder, not a file', 'give --db the path of a database file');
    try {
      accessSync(path, constants.R_OK | constants.W_OK);
    } catch (error) {
      throw fault(`cannot be read and written by this user (${codeOf(error)})`, 'give this user read and write access to it, or give --db another file');
    }
    checkDatabase(path, schemaVersion, fault);
  }
  const lock = new Database(`${path}-lock`, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if (codeOf(error) === 'SQLITE_BUSY') throw fault(`is in use by another dhi serve (it holds ${path}-lock)`, 'stop that server first, or give --db another file');
    throw fault(`cannot be locked through ${path}-lock (${codeOf(error)})`, `remove ${path}-lock if no dhi serve runs on this file`);
  }
  return () => lock.close();
}

function checkDatabase(path: string, schemaVersion: number, fault: (problem: string, remedy: string) => StoreFileError): void {
  let db: Database.Database | undefined;
  let version: number;
  let tables: number;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    version = db.pragma('user_version', { simple: true }) as number;
    tables = db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() as number;
  } catch (error) {
    const code = codeOf(error);
    if (code === 'SQLITE_NOTADB') throw fault('is not a SQLite database', 'give --db a new path, or the file of an earlier dhi serve');
    if (code.startsWith('SQLITE_CORRUPT')) throw fault(`is damaged (${(error as Error).message})`, 'restore it from a copy, or give --db a new path');
    throw fault(`cannot be read (${(error as Error).message}, ${code})`, 'check the disk and the file, or give --db another path');
  } finally {
    db?.close();
  }
  if (version > schemaVersion) {
    throw fault(`has schema version ${version}, newer than this dhi knows (${schemaVersion}): a newer dhi wrote it`, 'run that dhi, or give --db another file');
  }
  if (version === 0 && tables > 0) {
    throw fault('is a SQLite database of another program (it has tables and no dhi schema version)', 'dhi does not change it: give --db a new path');
  }
}
