// Tags on objects of every kind, kept in one `taggings` table (label, kind, object id) so that
// Tags lists and removes them across areas. An area whose objects carry `tags` uses these
// helpers and registers a TaggableKind (core/services.ts); nothing here knows the kinds.
import { sql } from 'kysely';
import type { AliasedRawBuilder } from 'kysely';
import { isPostgres } from './store/db.js';
import type { Db, Trx } from './store/db.js';

const SEPARATOR = '\u001f';

/**
 * A `tags` column for a query of objects of one kind: the object's tag labels, sorted, in one
 * string (read it with `tagLabels`). Reading tags with the row saves a query per read.
 */
export function tagsColumn(db: Db | Trx, kind: string, idColumn: string): AliasedRawBuilder<string | null, 'tags'> {
  const id = sql.ref(idColumn);
  return (isPostgres(db)
    ? sql<string | null>`(select string_agg(label, chr(31) order by label collate "C") from taggings where kind = ${kind} and object_id = ${id})`
    : sql<string | null>`(select group_concat(label, char(31) order by label) from taggings where kind = ${kind} and object_id = ${id})`).as('tags');
}

/** The `tagsColumn` value of these labels (for an object just written, without reading it back). */
export function joinTagLabels(labels: readonly string[]): string | null {
  return labels.length ? [...new Set(labels)].sort().join(SEPARATOR) : null;
}

/** The labels of a `tagsColumn` value. */
export function tagLabels(value: string | null): string[] {
  return value ? value.split(SEPARATOR) : [];
}

/**
 * Replaces the tags of one object (`replace: false` for an object just created, which has none);
 * labels that are new create their tag.
 */
export async function setTags(trx: Trx, kind: string, objectId: number, labels: readonly string[], now: number, { replace = true } = {}): Promise<void> {
  if (replace) await trx.deleteFrom('taggings').where('kind', '=', kind).where('object_id', '=', objectId).execute();
  if (!labels.length) return;
  const unique = [...new Set(labels)];
  await ensureTags(trx, unique, now);
  await trx.insertInto('taggings').values(unique.map((label) => ({ label, kind, object_id: objectId }))).execute();
}

/** Creates the tags that do not exist yet. */
export async function ensureTags(trx: Trx, labels: readonly string[], now: number): Promise<void> {
  if (!labels.length) return;
  await trx.insertInto('tags').values(labels.map((label) => ({ label, created: now })))
    .onConflict((oc) => oc.column('label').doNothing()).execute();
}

/**
 * The tag labels of many objects of one kind, sorted, by object id (every id present): one query
 * for a page of a list, where `tagsColumn` would run a subquery per row.
 */
export async function tagsOf(db: Db | Trx, kind: string, objectIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(objectIds.map((id) => [id, []]));
  if (!objectIds.length) return out;
  const rows = await db.selectFrom('taggings').select(['object_id', 'label'])
    .where('kind', '=', kind).where('object_id', 'in', [...objectIds]).execute();
  for (const row of rows) out.get(row.object_id)?.push(row.label);
  for (const labels of out.values()) labels.sort();
  return out;
}

/** Removes every tag from a deleted object (the tags themselves stay). */
export async function untagObject(trx: Trx, kind: string, objectId: number): Promise<void> {
  await trx.deleteFrom('taggings').where('kind', '=', kind).where('object_id', '=', objectId).execute();
}
