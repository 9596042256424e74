// Permissions on single objects, as the requirements' grants say (`volume:read_only` to attach,
// read_write on every object a tag goes on, `image:read_only` to deploy). A token with grants
// "all" holds every permission; otherwise a token holds:
//   - `<entity>:<level>` from its grants: that level on every object of the kind;
//   - `<entity>:<id>:<level>` from its grants: on that object;
//   - read_write on what it created itself (rows of `object_grants`, written by recordCreator).
// read_write satisfies read_only.
import type { AuthContext, PermissionLevel } from './auth.js';
import { forbidden } from './errors.js';
import { batches } from './store/batches.js';
import type { Db, Trx } from './store/db.js';

const satisfies = (held: string, wanted: PermissionLevel) => held === 'read_write' || held === wanted;

export async function hasPermission(db: Db | Trx, auth: AuthContext | null, entity: string, id: number | string, level: PermissionLevel): Promise<boolean> {
  if (!auth) return false;
  if (auth.grants === 'all') return true;
  for (const held of ['read_write', 'read_only'] as const) {
    if (satisfies(held, level) && (auth.grants.has(`${entity}:${held}`) || auth.grants.has(`${entity}:${id}:${held}`))) return true;
  }
  const row = await db.selectFrom('object_grants').select('level')
    .where('token_id', '=', auth.tokenId).where('entity', '=', entity).where('object_id', '=', String(id))
    .executeTakeFirst();
  return row !== undefined && satisfies(row.level, level);
}

/** The ids among `ids` on which the user holds `level`: one query per batch, not one per id. */
export async function permittedAmong(db: Db | Trx, auth: AuthContext | null, entity: string, ids: readonly number[], level: PermissionLevel): Promise<Set<number>> {
  if (!auth) return new Set();
  if (auth.grants === 'all') return new Set(ids);
  const grants = auth.grants;
  const holds = (key: (held: PermissionLevel) => string) => (['read_write', 'read_only'] as const).some((held) => satisfies(held, level) && grants.has(key(held)));
  if (holds((held) => `${entity}:${held}`)) return new Set(ids);
  const permitted = new Set(ids.filter((id) => holds((held) => `${entity}:${id}:${held}`)));
  const rest = ids.filter((id) => !permitted.has(id));
  for (const batch of batches(rest, 1)) {
    const rows = await db.selectFrom('object_grants').select(['object_id', 'level'])
      .where('token_id', '=', auth.tokenId).where('entity', '=', entity).where('object_id', 'in', batch.map(String)).execute();
    for (const row of rows) if (satisfies(row.level, level)) permitted.add(Number(row.object_id));
  }
  return permitted;
}

export async function requirePermission(db: Db | Trx, auth: AuthContext | null, entity: string, id: number | string, level: PermissionLevel, field?: string): Promise<void> {
  if (!(await hasPermission(db, auth, entity, id, level))) {
    throw forbidden(`This user lacks ${level} permission on ${entity} ${id}`, field);
  }
}

export async function recordCreator(trx: Trx, auth: AuthContext | null, entity: string, id: number | string): Promise<void> {
  if (!auth || auth.grants === 'all') return;
  await trx.insertInto('object_grants').values({ token_id: auth.tokenId, entity, object_id: String(id), level: 'read_write' })
    .onConflict((oc) => oc.columns(['token_id', 'entity', 'object_id']).doUpdateSet({ level: 'read_write' }))
    .execute();
}

/** Forgets every permission on a deleted object. */
export async function forgetObject(trx: Trx, entity: string, id: number | string): Promise<void> {
  await trx.deleteFrom('object_grants').where('entity', '=', entity).where('object_id', '=', String(id)).execute();
}
