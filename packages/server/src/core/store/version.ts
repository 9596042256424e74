// The data version of a store: a text that changes whenever data committed by any connection or
// process may have changed, and that stays the same while nothing is committed. What is computed
// from the data (a list's count, a rendered page) is kept with the version read *before* the data
// was, and holds while the version is still that text: a commit between the two reads only makes
// the entry look older than it is. Each engine's adapter registers how it reads its version
// (sqlite.ts: total_changes() and data_version; postgres.ts: the current snapshot); an engine
// without one (a Kysely dialect brought from elsewhere) keeps nothing.
import type { Kysely } from 'kysely';

export type VersionReader = () => string | Promise<string>;

const readers = new WeakMap<Kysely<any>, VersionReader>();

export function registerDataVersion(db: Kysely<any>, reader: VersionReader): void {
  readers.set(db, reader);
}

/** How to read `db`'s data version, or undefined when its engine cannot tell. */
export function dataVersionReader(db: Kysely<any>): VersionReader | undefined {
  return readers.get(db);
}
