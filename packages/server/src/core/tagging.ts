// Tags on objects of every kind, kept in one `taggings` table (label, kind, object id) so that
// Tags lists and removes them across areas. An area whose objects carry `tags` reads them through
// `taggableStore` (core/taggable-store.ts), writes them with these helpers and registers the
// store's TaggableKind (core/services.ts); nothing here knows the kinds.
import { sql } from 'kysely';
import type { AliasedRawBuilder } from 'kysely';
import { isPostgres } from './store/kind.js';
import type { Db, Trx } from './store/db.js';
import { batches, yieldToOtherRequests } from './store/batches.js';
import { prepared } from './store/prepared.js';

const SEPARATOR = '\u001f';

/**
 * A `tags` column for a query of objects of one kind: the object's tag labels in one string (read
 * it with `tagLabels`, which sorts them). Reading tags with the row saves a query per read. SQLite
 * concatenates them unordered: an ORDER BY inside group_concat builds a temporary B-tree on every
 * read, which cost more than the rest of a point read.
 */
export function tagsColumn(db: Db | Trx, kind: string, idColumn: string): AliasedRawBuilder<string | null, 'tags'> {
  const id = sql.ref(idColumn);
  return (isPostgres(db)
    ? sql<string | null>`(select string_agg(label, chr(31) order by label collate "C") from taggings where kind = ${kind} and object_id = ${id})`
    : sql<string | null>`(select group_concat(label, char(31)) from taggings where kind = ${kind} and object_id = ${id})`).as('tags');
}

/**
 * Labels in code point order, as SQL orders text by bytes (SQLite's BINARY, PostgreSQL's "C"):
 * UTF-16 code units order the same, except that surrogates (code points above U+FFFF) come after
 * U+E000..U+FFFF.
 */
export function byCodePoint(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x += x >= 0xe000 ? -0x800 : 0x2000;
      y += y >= 0xe000 ? -0x800 : 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** The `tagsColumn` value of these labels (for an object just written, without reading it back); `tagLabels` sorts them. */
export function joinTagLabels(labels: readonly string[]): string | null {
  return labels.length ? [...new Set(labels)].join(SEPARATOR) : null;
}

/** The labels of a `tagsColumn` value, sorted. */
export function tagLabels(value: string | null): string[] {
  if (!value) return [];
  const labels = value.split(SEPARATOR);
  return labels.length > 1 ? labels.sort(byCodePoint) : labels;
}

/**
 * Replaces the tags of one object (`replace: false` for an object just created, which has none);
 * labels that are new create their tag.
 */
export async function setTags(trx: Trx, kind: string, objectId: number, labels: readonly string[], now: number, { replace = true } = {}): Promise<void> {
  if (replace) await untagObject(trx, kind, objectId);
  if (!labels.length) return;
  const unique = [...new Set(labels)];
  await ensureTags(trx, unique, now);
  await insertTaggings(trx, kind, objectId, ...unique);
}

// Objects are created and tagged on every write path: these run prepared (one statement per
// number of labels).
const insertTags = prepared((db, now: number, ...labels: string[]) => db.insertInto('tags')
  .values(labels.map((label) => ({ label, created: now }))).onConflict((oc) => oc.column('label').doNothing()));
const insertTaggings = prepared((db, kind: string, objectId: number, ...labels: string[]) => db.insertInto('taggings')
  .values(labels.map((label) => ({ label, kind, object_id: objectId }))));
const insertObjectTaggings = prepared((db, label: string, kind: string, ...objectIds: number[]) => db.insertInto('taggings')
  .values(objectIds.map((objectId) => ({ label, kind, object_id: objectId }))));
const deleteTaggings = prepared((db, kind: string, objectId: number) => db.deleteFrom('taggings')
  .where('kind', '=', kind).where('object_id', '=', objectId));

// Prepared (one statement per number of ids): building and compiling an IN of many values cost
// more than running it.
const taggingsOf = prepared((db, kind: string, ...objectIds: number[]) => db.selectFrom('taggings').select(['object_id', 'label'])
  .where('kind', '=', kind).where('object_id', 'in', objectIds));

/** Rows of one statement of `tagObjects`: small enough that other clients wait about a millisecond. */
const TAGGINGS_PER_STATEMENT = 100;

/**
 * Puts one tag on many objects of one kind (a new tag's lists), in batches, letting other
 * requests be served between them (on SQLite each statement holds the event loop).
 */
export async function tagObjects(trx: Trx, label: string, kind: string, objectIds: readonly number[]): Promise<void> {
  for (const [i, batch] of batches(objectIds, 1, TAGGINGS_PER_STATEMENT).entries()) {
    if (i > 0) await yieldToOtherRequests();
    await insertObjectTaggings(trx, label, kind, ...batch);
  }
}

/** Creates the tags that do not exist yet. */
export async function ensureTags(trx: Trx, labels: readonly string[], now: number): Promise<void> {
  if (!labels.length) return;
  await insertTags(trx, now, ...labels);
}

/** The tag labels of objects of one kind, sorted, by object id (every id present), in one query. */
export async function tagsOf(db: Db | Trx, kind: string, objectIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(objectIds.map((id) => [id, []]));
  if (!objectIds.length) return out;
  for (const row of await taggingsOf(db, kind, ...objectIds)) out.get(row.object_id)?.push(row.label);
  for (const labels of out.values()) labels.sort(byCodePoint);
  return out;
}

/** Removes every tag from a deleted object (the tags themselves stay). */
export async function untagObject(trx: Trx, kind: string, objectId: number): Promise<void> {
  await deleteTaggings(trx, kind, objectId);
}
