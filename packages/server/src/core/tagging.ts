// Tags on objects of every kind, kept in one `taggings` table (label, kind, object id) so that
// Tags lists and removes them across areas. An area whose objects carry `tags` uses these
// helpers and registers a TaggableKind (core/services.ts); nothing here knows the kinds.
import type { Db, Trx } from './store/db.js';

/** Replaces the tags of one object; labels that are new create their tag. */
export async function setTags(trx: Trx, kind: string, objectId: number, labels: readonly string[], now: number): Promise<void> {
  await trx.deleteFrom('taggings').where('kind', '=', kind).where('object_id', '=', objectId).execute();
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

/** The tag labels of objects of one kind, sorted, by object id (every id present). */
export async function tagsOf(db: Db | Trx, kind: string, objectIds: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(objectIds.map((id) => [id, []]));
  if (!objectIds.length) return out;
  const rows = await db.selectFrom('taggings').select(['object_id', 'label'])
    .where('kind', '=', kind).where('object_id', 'in', [...objectIds]).orderBy('label').execute();
  for (const row of rows) out.get(row.object_id)?.push(row.label);
  return out;
}

/** Removes every tag from a deleted object (the tags themselves stay). */
export async function untagObject(trx: Trx, kind: string, objectId: number): Promise<void> {
  await trx.deleteFrom('taggings').where('kind', '=', kind).where('object_id', '=', objectId).execute();
}
