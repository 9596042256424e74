// Tags: labels on objects of every kind that registers a TaggableKind (volumes here; domains,
// balancers and instances when their areas land). Create and delete need an unrestricted user
// (checked before the handlers run, from `x-account-grants`); tagging an object needs read_write
// on it, or nothing is created.
import { cachedPages, defineArea, defineHandlers } from '../../core/area.js';
import { ApiError, badRequest, notFound } from '../../core/errors.js';
import type { ErrorDetail } from '../../core/errors.js';
import { permittedAmong } from '../../core/permissions.js';
import { tagObjects } from '../../core/tagging.js';
import { paginate } from '../../core/store/pagination.js';

const ID_LIST_FIELDS_EXCLUDED = new Set(['label']);

export default defineArea({
  name: 'tags',
  tags: ['Tags'],
  handlers: defineHandlers({
    listTags: cachedPages(async (ctx) => paginate(ctx.db, ctx.db.selectFrom('tags').select('label').orderBy('label'), ctx.query, (rows) => rows)),

    createTag: async (ctx) => {
      const { label } = ctx.body;
      const byField = new Map([...ctx.services.taggables.values()].map((kind) => [kind.field, kind]));
      // Every other field of the body lists ids of one kind of object (`volumes`, `domains`, ...).
      const lists = Object.entries(ctx.body).filter(([field]) => !ID_LIST_FIELDS_EXCLUDED.has(field)) as [string, number[]][];
      await ctx.write(async (trx) => {
        const missing: ErrorDetail[] = [];
        const denied: ErrorDetail[] = [];
        const taggings = new Map<string, number[]>();
        for (const [field, ids] of lists) {
          const kind = byField.get(field);
          const existing = kind ? await kind.existing(trx, ids) : new Set<number>();
          const permitted = kind ? await permittedAmong(trx, ctx.auth, kind.entity, ids, 'read_write') : new Set<number>();
          for (const [i, id] of ids.entries()) {
            if (!existing.has(id)) missing.push({ field: `${field}.${i}`, reason: `${field}.${i}: there is no object ${id} among ${field}` });
            else if (!permitted.has(id)) denied.push({ field: `${field}.${i}`, reason: `This user lacks read_write permission on ${kind!.entity} ${id}, so the tag is not created` });
            else {
              if (!taggings.has(kind!.type)) taggings.set(kind!.type, []);
              taggings.get(kind!.type)!.push(id);
            }
          }
        }
        if (missing.length) throw new ApiError(400, missing);
        if (denied.length) throw new ApiError(403, denied);
        const inserted = await trx.insertInto('tags').values({ label, created: ctx.clock.now() })
          .onConflict((oc) => oc.column('label').doNothing()).executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) throw badRequest(`A tag labelled "${label}" already exists`, 'label');
        for (const [kind, ids] of taggings) await tagObjects(trx, label, kind, ids);
      });
      return { label };
    },

    listTaggedObjects: async (ctx) => {
      const { label } = ctx.params;
      const tag = await ctx.db.selectFrom('tags').select('label').where('label', '=', label).executeTakeFirst();
      if (!tag) throw notFound(`Tag ${label} does not exist`);
      const query = ctx.db.selectFrom('taggings').select(['kind', 'object_id']).where('label', '=', label).orderBy('kind').orderBy('object_id');
      return paginate(ctx.db, query, ctx.query, async (rows) => {
        const byKind = new Map<string, number[]>();
        for (const row of rows) byKind.set(row.kind, [...(byKind.get(row.kind) ?? []), row.object_id]);
        const loaded = new Map<string, Map<number, unknown>>();
        for (const [kind, ids] of byKind) {
          const taggable = ctx.services.taggables.get(kind);
          loaded.set(kind, taggable ? await taggable.load(ctx.db, ids, ctx) : new Map());
        }
        return rows.flatMap((row) => {
          const data = loaded.get(row.kind)?.get(row.object_id);
          return data === undefined ? [] : [{ type: row.kind, data } as never];
        });
      });
    },

    deleteTag: async (ctx) => {
      const { label } = ctx.params;
      await ctx.write(async (trx) => {
        await trx.deleteFrom('taggings').where('label', '=', label).execute();
        const result = await trx.deleteFrom('tags').where('label', '=', label).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw notFound(`Tag ${label} does not exist`);
      });
      return {};
    },
  }),
});
