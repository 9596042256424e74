// Migrated databases for the test servers that serve every area (startTestServer): on the run's
// PostgreSQL, a template database migrated once and copied for each server (CREATE DATABASE …
// TEMPLATE), instead of making every area's tables on an empty database for each of the run's
// ~40 servers there (about 0.2 s and 0.1 s of CPU apiece). The server still runs its migrations
// on start and finds nothing to do; servers started as processes and the store tests begin on
// empty databases, so the migrations themselves still run on both engines in every run.
import { createHash, randomBytes } from 'node:crypto';
import * as areas from '../../src/areas/index.js';
import { buildRegistry } from '../../src/core/registry.js';
import { openStore } from '../../src/core/store/db.js';
import { migrate } from '../../src/core/store/migrations.js';
import pg from 'pg';
import { createDatabase, databaseUrl, runOnce } from './postgres.js';

/** What a server serving every area migrates to (startServer's default areas). */
const migrations = buildRegistry(Object.values(areas)).migrations;

/** Named after the migrations it holds: a run of other code never takes one made for these. */
const templateName = `migrated_${createHash('sha256').update(Object.keys(migrations).sort().join('\n')).digest('hex').slice(0, 16)}`;

let made: Promise<string> | undefined;

/**
 * A new database on the run's PostgreSQL with every area's tables: a copy of the template, with
 * a URL-signing secret of its own (the Object Storage migration draws one per database, which
 * copies would otherwise share).
 */
export async function migratedDatabase(adminUrl: string, hint: string, dataDir: () => string): Promise<string> {
  const url = await createDatabase(adminUrl, hint, await migratedTemplate(adminUrl, dataDir));
  await runOnce(url, "update object_storage_secrets set value = $1 where name = 'url_signing'", [randomBytes(32).toString('hex')]);
  return url;
}

/**
 * The template's name, made on first use. Test workers of one run may ask at once: an advisory
 * lock lets one migrate it (under another name, renamed once complete) while the others wait.
 */
function migratedTemplate(adminUrl: string, dataDir: () => string): Promise<string> {
  made ??= makeTemplate(adminUrl, dataDir).catch((error) => {
    made = undefined;
    throw error;
  });
  return made;
}

async function makeTemplate(adminUrl: string, dataDir: () => string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(hashtext($1))', [templateName]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [templateName]);
    if (found.rowCount) return templateName;
    const building = `${templateName}_building`;
    await admin.query(`drop database if exists "${building}"`);
    await admin.query(`create database "${building}"`);
    const store = await openStore({ databaseUrl: databaseUrl(adminUrl, building), dataDir: dataDir(), poolSize: 1 });
    try {
      await migrate(store.db, migrations);
    } finally {
      await store.close();
    }
    // Waits (up to 5 s) for the store's sessions to end, as a copy of it would.
    await admin.query(`alter database "${building}" rename to "${templateName}"`);
    return templateName;
  } finally {
    await admin.end(); // the session's end releases its lock
  }
}
