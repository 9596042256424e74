// Migrated stores for the test servers that serve every area (startTestServer): a store migrated
// once per test worker and copied for each server (the SQLite file; on PostgreSQL a template
// database, CREATE DATABASE … TEMPLATE), instead of making every area's tables anew for each of
// the run's ~90 servers (on PostgreSQL about 0.2 s and 0.1 s of CPU apiece, on SQLite a third of
// that). The server still runs its migrations on start and finds nothing to do; servers started
// as processes and the store tests begin on empty stores, so the migrations themselves still run
// on both engines in every run.
import { chmodSync, copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import * as areas from '../../src/areas/index.js';
import { buildRegistry } from '../../src/core/registry.js';
import { openStore } from '../../src/core/store/db.js';
import type { Db } from '../../src/core/store/db.js';
import { migrate } from '../../src/core/store/migrations.js';
import { createDatabase, databaseUrl } from './postgres.js';

/** What a server serving every area migrates to (startServer's default areas). */
const migrations = buildRegistry(Object.values(areas)).migrations;

/** Migrates a new store (in `dataDir`, or at `databaseUrl`) and closes it; resolves with where it lives. */
async function migrated(dataDir: string, databaseUrl?: string): Promise<string> {
  const store = await openStore({ dataDir, databaseUrl, poolSize: 1 });
  try {
    await migrate(store.db, migrations);
  } finally {
    await store.close();
  }
  return store.location;
}

/** A value made once per worker; a failure is not kept, so the next caller tries again. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make().catch((error) => {
    made = undefined;
    throw error;
  }));
}

let sqliteTemplate: (() => Promise<string>) | undefined;

/** A copy of the migrated SQLite file in `dataDir` (`scratch` gives a folder for the template). */
export async function migratedSqliteFile(dataDir: string, scratch: () => string): Promise<void> {
  sqliteTemplate ??= once(async () => {
    const file = await migrated(scratch());
    // Closing the last connection copies the log into the file and removes it: the file is all.
    if (existsSync(`${file}-wal`)) throw new Error(`the SQLite template ${file} kept its write-ahead log after closing`);
    return file;
  });
  const template = await sqliteTemplate();
  const copy = path.join(dataDir, path.basename(template));
  copyFileSync(template, copy);
  chmodSync(copy, 0o600); // as the server makes it: a wider mode would be narrowed and reported
}

/** Named after the migrations it holds: a run of other code never takes one made for these. */
const templateName = `migrated_${createHash('sha256').update(Object.keys(migrations).sort().join('\n')).digest('hex').slice(0, 16)}`;

let postgresTemplate: (() => Promise<string>) | undefined;

/** A new database on the run's PostgreSQL (`adminUrl`) copied from the migrated template. */
export async function migratedDatabase(adminUrl: string, hint: string, scratch: () => string): Promise<string> {
  postgresTemplate ??= once(() => makeTemplateDatabase(adminUrl, scratch));
  return createDatabase(adminUrl, hint, await postgresTemplate());
}

/**
 * The template database, made unless there already is one. Test workers of one run may ask at
 * once: an advisory lock lets one migrate it (under another name, renamed once complete) while
 * the others wait.
 */
async function makeTemplateDatabase(adminUrl: string, scratch: () => string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(hashtext($1))', [templateName]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [templateName]);
    if (found.rowCount) return templateName;
    const building = `${templateName}_building`;
    await admin.query(`drop database if exists "${building}"`);
    await admin.query(`create database "${building}"`);
    await migrated(scratch(), databaseUrl(adminUrl, building));
    // Waits (up to 5 s) for the store's sessions to end, as a copy of it would.
    await admin.query(`alter database "${building}" rename to "${templateName}"`);
    return templateName;
  } finally {
    await admin.end(); // the session's end releases its lock
  }
}

/**
 * Copies share the template's URL-signing secret, which the Object Storage migration draws per
 * database: a server started on a copy is given one of its own before it serves a request.
 */
export async function giveOwnSigningSecret(db: Db): Promise<void> {
  await db.updateTable('object_storage_secrets').set({ value: randomBytes(32).toString('hex') }).where('name', '=', 'url_signing').execute();
}
