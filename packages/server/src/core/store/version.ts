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

/**
 * A reader that puts at most one version query on the wire at a time (PostgreSQL: each costs a
 * round trip and about as much CPU as the cached answer it guards). Callers that ask while a query
 * is on the wire share the next one, sent once it answers, never the one on the wire: that one may
 * have left before a commit the caller was told of, and must see.
 */
export function sharedReads(read: () => Promise<string>): () => Promise<string> {
  let onTheWire: Promise<string> | null = null;
  let next: Promise<string> | null = null;
  const send = (): Promise<string> => (onTheWire = read().finally(() => { onTheWire = null; }));
  return () => {
    if (!onTheWire) return send();
    next ??= onTheWire.then(() => undefined, () => undefined).then(() => {
      next = null;
      return onTheWire ?? send();
    });
    return next;
  };
}
