// Versioned migrations, run on start by Kysely's migrator on both engines. Each area brings its
// own, named `<YYYYMMDDHHMM>_<area>_<what>` (UTC time of writing): names sort in the order they
// were written, the area in the name keeps two areas written in the same minute apart, and
// unordered runs are allowed, so a branch merged later still runs its migration on a database
// that already has newer ones. A migration may use core tables, its own area's, and those of
// areas that landed before it was written.
import { Migrator } from 'kysely';
import type { Kysely, Migration } from 'kysely';

export type Migrations = Record<string, Migration>;

export const MIGRATION_NAME = /^(\d{12})_([a-z][a-z0-9-]*)_([a-z0-9_]+)$/;

/** Checks names and merges the migrations of every area; a bad or repeated name stops start-up. */
export function collectMigrations(byArea: { area: string; migrations: Migrations }[]): Migrations {
  const all: Migrations = {};
  for (const { area, migrations } of byArea) {
    for (const [name, migration] of Object.entries(migrations)) {
      const match = MIGRATION_NAME.exec(name);
      if (!match) throw new Error(`migration "${name}" of area ${area} must be named <YYYYMMDDHHMM>_${area}_<what> (lower case, digits, underscores)`);
      if (match[2] !== area) throw new Error(`migration "${name}" is in area ${area} but names area "${match[2]}"`);
      if (all[name]) throw new Error(`migration "${name}" is defined twice`);
      all[name] = migration;
    }
  }
  return all;
}

/** Brings the database up to date. Concurrent starts on one PostgreSQL wait for each other's lock. */
export async function migrate(db: Kysely<any>, migrations: Migrations): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) throw new Error(`migration ${failed ? `"${failed.migrationName}" ` : ''}failed: ${(error as Error).message ?? error}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
